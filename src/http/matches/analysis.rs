//! `GET /v1/matches/{id}/analysis`: a finished match's cards valued by the
//! whole-hand solver and its bidding by the expert's bid search
//! (docs/api.md, "Analysis"), and its wire types.

use actix_web::http::header;
use actix_web::web::{Data, Path};
use actix_web::{HttpResponse, get};
use serde::Serialize;
use utoipa::ToSchema;

use crate::http::middleware::extract::Bearer;
use crate::http::openapi::schema::SeatNumber;
use crate::http::problem::{ApiError, Problem};
use crate::rules::{Action, Card, Phase, Seat, Trump};
use crate::service::analysis::{BidValue, Budget, CardValue, HandAnalysis, MatchAnalysis};
use crate::service::{AnalysisRead, Service};

/// Seconds a client waits before asking again while the analysis runs.
const RETRY_SECS: u32 = 2;

/// Where an analysis stands.
#[derive(Clone, Copy, Debug, Serialize, ToSchema, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
pub enum AnalysisStatus {
    /// Being computed: ask again after `Retry-After` seconds.
    Computing,
    /// Done: every card and bidding decision of the analysed hands is in `hands`.
    Done,
}

/// How far the analysis has got, in steps: a card or a bidding decision
/// valued.
#[derive(Clone, Copy, Debug, Serialize, ToSchema)]
pub struct AnalysisProgress {
    /// Steps done so far.
    pub done: u32,
    /// Steps to do (every card and every bidding decision with a choice
    /// of the analysed hands).
    pub total: u32,
}

/// What each analysis may spend.
#[derive(Clone, Copy, Debug, Serialize, ToSchema)]
pub struct AnalysisBudget {
    /// The hands analysed, from the first; the match's later hands are left out.
    pub max_hands: u32,
    /// The positions the solver may visit for one card; past it the card
    /// is answered with `solved: false`.
    pub nodes_per_card: u64,
    /// The positions the solver may visit for the whole analysis; once
    /// they are spent, the cards still to value are answered with
    /// `solved: false`.
    pub nodes_per_match: u64,
    /// The bid search's playouts for one bidding decision (one playout:
    /// one action tried on one sampled deal, played to the end of the
    /// hand); 0 when the bidding is not valued.
    pub playouts_per_bid: u32,
}

/// Which bidding a decision belongs to.
#[derive(Clone, Copy, Debug, Serialize, ToSchema, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
pub enum BidPhase {
    /// The trump choice: a declaration or a hand-on.
    Trump,
    /// The doubles: a call or a pass.
    Double,
}

/// One action a bidding decision could take, valued.
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct BidOption {
    /// The action, as `legal_actions` lists it.
    pub action: Action,
    /// Its estimated value (see [`BidAnalysis`]).
    pub value: f64,
}

/// One bidding decision (a trump-phase action or a doubling call, passes
/// included, of a seat that had a choice), valued by the expert's bid
/// search from the deciding seat's own view.
///
/// Values are estimates, not exact: the mean over `deals` deals of the
/// hidden cards, sampled consistently with what the seat had seen (and
/// weighed by how likely they made the bidding so far, where the expert
/// infers), of the recorded points the seat's side makes from the hand
/// less those of the other side (in the individual variants, the mean of
/// the other players'), the hand's multiplier included, each action played
/// out by the expert's playouts, the others finishing the bidding as the
/// expert expects. Rounded to hundredths. An `estevet` is never tried.
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct BidAnalysis {
    /// Who decided.
    #[schema(value_type = SeatNumber)]
    pub seat: Seat,
    /// `trump` or `double`.
    pub phase: BidPhase,
    /// The action taken.
    pub action: Action,
    /// The deals sampled.
    pub deals: u32,
    /// Every action tried (every legal one but `estevet`), in the order of
    /// `legal_actions`, with its value.
    pub values: Vec<BidOption>,
    /// The taken action's value; null for an `estevet`.
    pub value: Option<f64>,
    /// The best value of an action tried.
    pub best: f64,
    /// Every action tried that reaches `best`.
    pub best_actions: Vec<Action>,
    /// `best − value`: the points the decision gave away by this estimate
    /// (0: a best action); null for an `estevet`.
    pub cost: Option<f64>,
}

/// One card played, valued by the whole-hand solver with every hand known.
///
/// Values are the hand points (card points and one a trick) the player's
/// side takes from the position the card was played in to the end of the
/// hand, the trick on the table included, with best play by every seat
/// after the card (in the individual variants the other seats play
/// against the player together).
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct CardAnalysis {
    /// The trick it was played to, from 1.
    pub trick: u8,
    /// Who played it.
    #[schema(value_type = SeatNumber)]
    pub seat: Seat,
    /// The card.
    pub card: Card,
    /// Whether the solver finished within `budget.nodes_per_card` (and
    /// `budget.nodes_per_match`); when not, `value`, `best` and `cost` are
    /// null and `best_cards` empty.
    pub solved: bool,
    /// The card's value.
    pub value: Option<u8>,
    /// The value of the best legal card of the position.
    pub best: Option<u8>,
    /// Every legal card that reaches `best` (the card played among them
    /// when it cost nothing).
    pub best_cards: Vec<Card>,
    /// `best − value`: the hand points the card gave away (0: a best card).
    pub cost: Option<u8>,
}

/// One hand's bidding and cards, valued.
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct HandAnalysisView {
    /// The hand's number, from 1.
    pub hand_number: u32,
    /// Who dealt.
    #[schema(value_type = SeatNumber)]
    pub dealer: Seat,
    /// Who named trump.
    #[schema(value_type = Option<SeatNumber>)]
    pub declarer: Option<Seat>,
    /// Trump.
    pub trump: Option<Trump>,
    /// The multiplier the hand was played at.
    pub multiplier: u32,
    /// The hand points each side took.
    pub points: Vec<u8>,
    /// Per seat: the hand points its solved cards gave away in all.
    pub cost_by_seat: Vec<u32>,
    /// Every bidding decision with a choice, in order (empty when
    /// `budget.playouts_per_bid` is 0).
    pub bids: Vec<BidAnalysis>,
    /// Every card played, in order.
    pub cards: Vec<CardAnalysis>,
}

/// `GET …/analysis`: a finished match's cards and bidding valued.
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct Analysis {
    /// The match.
    pub match_id: String,
    /// `computing` (answered with `202`) or `done` (`200`).
    pub status: AnalysisStatus,
    /// Steps done of steps to do.
    pub progress: AnalysisProgress,
    /// What the analysis may spend.
    pub budget: AnalysisBudget,
    /// The hands the match dealt (more than `hands` holds when the budget
    /// left some out); null while computing.
    pub hands_played: Option<u32>,
    /// The cards the solver could not value within its budget; null while computing.
    pub unsolved: Option<u32>,
    /// The positions the solver visited in all; null while computing.
    pub nodes: Option<u64>,
    /// The analysed hands, in order (empty while computing).
    pub hands: Vec<HandAnalysisView>,
}

impl From<&CardValue> for CardAnalysis {
    fn from(c: &CardValue) -> CardAnalysis {
        let s = c.solved.as_ref();
        CardAnalysis {
            trick: c.trick,
            seat: c.seat,
            card: c.card,
            solved: s.is_some(),
            value: s.map(|s| s.value),
            best: s.map(|s| s.best),
            best_cards: s.map_or_else(Vec::new, |s| s.best_cards.clone()),
            cost: s.map(|s| s.cost()),
        }
    }
}

/// Hundredths of a point as a point value.
fn points(hundredths: i32) -> f64 {
    f64::from(hundredths) / 100.0
}

impl From<&BidValue> for BidAnalysis {
    fn from(b: &BidValue) -> BidAnalysis {
        BidAnalysis {
            seat: b.seat,
            phase: if b.phase() == Phase::ChoosingTrump {
                BidPhase::Trump
            } else {
                BidPhase::Double
            },
            action: b.action,
            deals: b.deals,
            values: b
                .values
                .iter()
                .map(|&(action, v)| BidOption {
                    action,
                    value: points(v),
                })
                .collect(),
            value: b.value().map(points),
            best: points(b.best()),
            best_actions: b.best_actions(),
            cost: b.cost().map(points),
        }
    }
}

impl HandAnalysisView {
    fn of(h: &HandAnalysis, seats: usize) -> HandAnalysisView {
        let mut cost_by_seat = vec![0u32; seats];
        for c in &h.cards {
            if let (Some(s), Some(total)) = (&c.solved, cost_by_seat.get_mut(usize::from(c.seat))) {
                *total += u32::from(s.cost());
            }
        }
        HandAnalysisView {
            hand_number: h.number,
            dealer: h.dealer,
            declarer: h.declarer,
            trump: h.trump,
            multiplier: h.multiplier,
            points: h.points.clone(),
            cost_by_seat,
            bids: h.bids.iter().map(BidAnalysis::from).collect(),
            cards: h.cards.iter().map(CardAnalysis::from).collect(),
        }
    }
}

impl Analysis {
    fn of(match_id: String, read: &AnalysisRead, budget: Budget, seats: usize) -> Analysis {
        let budget = AnalysisBudget {
            max_hands: budget.max_hands,
            nodes_per_card: budget.nodes_per_card,
            nodes_per_match: budget.nodes_per_match,
            playouts_per_bid: budget.playouts_per_bid,
        };
        match read {
            AnalysisRead::Computing { done, total } => Analysis {
                match_id,
                status: AnalysisStatus::Computing,
                progress: AnalysisProgress {
                    done: *done,
                    total: *total,
                },
                budget,
                hands_played: None,
                unsolved: None,
                nodes: None,
                hands: Vec::new(),
            },
            AnalysisRead::Done(a) => Analysis::done(match_id, a, budget, seats),
        }
    }

    fn done(match_id: String, a: &MatchAnalysis, budget: AnalysisBudget, seats: usize) -> Analysis {
        let total = a
            .hands
            .iter()
            .map(|h| (h.cards.len() + h.bids.len()) as u32)
            .sum();
        Analysis {
            match_id,
            status: AnalysisStatus::Done,
            progress: AnalysisProgress { done: total, total },
            budget,
            hands_played: Some(a.hands_played),
            unsolved: Some(a.unsolved() as u32),
            nodes: Some(a.nodes),
            hands: a
                .hands
                .iter()
                .map(|h| HandAnalysisView::of(h, seats))
                .collect(),
        }
    }
}

/// The analysis of a finished match: for every card played, its exact
/// value beside the best card's, in hand points; for every bidding
/// decision, each legal action's value estimated by the expert's bid
/// search, in recorded points; hand by hand.
///
/// Served only once the match is over (before: `409 match_not_over`; it
/// would show cards still hidden). The first read starts the computation
/// and answers `202` with its progress and `Retry-After`; later reads
/// answer `202` until it is done, then `200`. Computed on this server
/// instance's own low-priority threads, a bounded number at once, and
/// kept in a bounded in-process cache.
#[utoipa::path(
    tag = "matches",
    params(("id" = String, Path, description = "Match id")),
    security((), ("seat_token" = []), ("player_key" = [])),
    responses(
        (status = 200, description = "The analysis, done", body = Analysis),
        (status = 202, description = "Being computed: the progress; ask again after `Retry-After` seconds", body = Analysis),
        (status = 401, description = "Wrong token", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "No such match", body = Problem, content_type = "application/problem+json"),
        (status = 409, description = "The match is not over (`match_not_over`)", body = Problem, content_type = "application/problem+json"),
        (status = 503, description = "As many analyses are being computed as the server allows (`busy`); retry later", body = Problem, content_type = "application/problem+json"),
    )
)]
#[get("/v1/matches/{id}/analysis")]
pub async fn analysis(
    svc: Data<Service>,
    id: Path<String>,
    bearer: Bearer,
) -> Result<HttpResponse, ApiError> {
    let (read, seats) = svc.analysis(&id, bearer.0.as_deref()).await?;
    let body = Analysis::of(id.into_inner(), &read, svc.analysis_budget(), seats);
    Ok(match read {
        AnalysisRead::Computing { .. } => HttpResponse::Accepted()
            .insert_header((header::RETRY_AFTER, RETRY_SECS.to_string()))
            .json(body),
        AnalysisRead::Done(_) => HttpResponse::Ok().json(body),
    })
}
