//! Creating a match: its seats, tokens and first house-bot moves.

use super::clock::now_ms;
use super::record::{MatchRecord, MatchView, OnTimeout, RatedMatch, SeatKind, SeatRecord};
use super::seat_player::SeatPlayer;
use super::seats::{CONSENT_DETAIL, Holder, SeatSpec, check_seat_spec};
use super::{Error, Service, driver, events, input, metrics, tokens};
use crate::bots;
use crate::rating;
use crate::rules::{Match, Rules, Seat};

/// A seat of a new match.
#[derive(Clone, Debug, Default)]
pub struct NewSeat {
    /// Remote (a client with a token) or a house bot.
    pub kind: SeatKind,
    /// The house bot for a bot seat, and the stand-in on a timeout
    /// (default [`bots::DEFAULT`]).
    pub bot: Option<String>,
    /// A display name, checked as [`check_display_name`](super::check_display_name)
    /// does (at most [`Limits::max_name_len`](super::Limits) characters)
    /// and stored in NFC.
    pub name: Option<String>,
    /// The player who sits here (its id): its key may act for the seat,
    /// and its stream hears of the match. The seat's name defaults to the
    /// player's.
    pub player: Option<String>,
    /// The hash of a seat token issued earlier (a table's joiner got it
    /// when it sat down); no new token is issued for this seat.
    pub token_sha256: Option<String>,
}

/// What a new match is to be.
#[derive(Clone, Debug, Default)]
pub struct NewMatch {
    /// The rule options.
    pub rules: Rules,
    /// One entry per seat in seat order; default: every seat remote.
    pub seats: Option<Vec<NewSeat>>,
    /// A 256-bit seed as 64 hex digits; default: drawn from the OS secure
    /// random source.
    pub seed: Option<String>,
    /// Deal every hand as soon as the previous one is scored.
    pub auto_deal: bool,
    /// A move clock (100 to 86,400,000 ms).
    pub move_timeout_ms: Option<u64>,
    /// What happens when the clock runs out.
    pub on_timeout: OnTimeout,
    /// The id to create it under (a table's, when its last seat is
    /// taken); default: a new random id.
    pub id: Option<String>,
    /// A rated match: the variant's standard rules
    /// ([`rating::rated_rules`]), and every seat a registered player or a
    /// house bot. Each seat's rating is recorded as the match is created.
    pub rated: bool,
}

/// A remote seat's secret token, shown once.
#[derive(Clone, Debug)]
pub struct SeatToken {
    /// The seat it acts for.
    pub seat: Seat,
    /// The token itself.
    pub token: String,
}

/// A new match.
#[derive(Clone, Debug)]
pub struct Created {
    /// The new match's id.
    pub match_id: String,
    /// One token per remote seat.
    pub tokens: Vec<SeatToken>,
    /// The spectator view of the new match.
    pub view: MatchView,
}

impl Service {
    /// Creates a match.
    ///
    /// # Errors
    /// `InvalidRequest` for bad rules, seats or seed; `StoreUnavailable`.
    pub async fn create(&self, req: NewMatch) -> Result<Created, Error> {
        self.create_at(req)
            .await?
            .ok_or_else(|| Error::Internal("match id collision".into()))
    }

    /// Creates a match asked for by the holder of `credential` (a player's
    /// key, or none): a seat may name only that player (see
    /// [`check_consent`](Service::check_consent)). The lobby's own starts
    /// (a table, a challenge, a queue group) seat players who consented
    /// there, through [`create_at`](Service::create_at).
    ///
    /// # Errors
    /// As [`check_consent`](Service::check_consent) and
    /// [`create`](Service::create).
    pub async fn create_as(
        &self,
        req: NewMatch,
        credential: Option<&str>,
    ) -> Result<Created, Error> {
        self.check_consent(req.seats.as_deref().unwrap_or_default(), credential)
            .await?;
        self.create(req).await
    }

    /// Creates a match, under `req.id` when given: `None` when a match
    /// with that id exists already (a table started by someone else).
    ///
    /// # Errors
    /// `InvalidRequest` for bad rules, seats, players or seed; `StoreUnavailable`.
    pub async fn create_at(&self, req: NewMatch) -> Result<Option<Created>, Error> {
        req.rules
            .validate()
            .map_err(|e| Error::InvalidRequest(e.to_string()))?;
        let n = req.rules.variant.table().seats as usize;
        let specs = req.seats.unwrap_or_else(|| vec![NewSeat::default(); n]);
        if specs.len() != n {
            return Err(Error::InvalidRequest(format!(
                "this variant has {n} seats; `seats` lists {}",
                specs.len()
            )));
        }
        let seed = match &req.seed {
            Some(hex_seed) => input::parse_seed(hex_seed)?,
            None => tokens::os_random::<32>()?,
        };
        input::check_move_timeout(req.move_timeout_ms)?;
        let (seats, seat_tokens) = self.seat_records(specs).await?;
        let rated = if req.rated {
            Some(self.rated_setup(&req.rules, &seats).await?)
        } else {
            None
        };
        let move_timeout_ms = match req.move_timeout_ms {
            None if rated.is_some() => Some(self.rated_clock(&seats)),
            asked => asked,
        };
        let game = Match::new(req.rules, seed).map_err(|e| Error::InvalidRequest(e.to_string()))?;
        let now = now_ms();
        let id = match req.id {
            Some(id) => id,
            None => tokens::new_match_id()?,
        };
        let rec = MatchRecord {
            id,
            version: 0,
            game,
            seats,
            auto_deal: req.auto_deal,
            move_timeout_ms,
            on_timeout: req.on_timeout,
            deadline_ms: None,
            created_ms: now,
            last_seq: Some(1),
            rated,
            legacy_layout: false,
            missed: [0; 4],
        };
        let events = vec![events::match_created(
            rec.game.dealer,
            rec.game.first_dealer_card,
        )];
        let driver::Advanced {
            rec,
            events,
            applied: house,
        } = self.driver.advance(rec, events, now).await?;
        if !self.store_new(&rec, &events).await? {
            return Ok(None);
        }
        metrics::metrics().matches_created.inc();
        house.record();
        tracing::info!(match_id = %rec.id, seats = ?rec.seats.iter().map(|s| s.kind).collect::<Vec<_>>(), "match created");
        Ok(Some(Created {
            match_id: rec.id.clone(),
            tokens: seat_tokens,
            view: rec.view(None),
        }))
    }
}

impl Service {
    /// The stored seats of a new match from their specifications, and
    /// the tokens issued to its remote seats.
    ///
    /// # Errors
    /// As [`check_seat`](Service::check_seat).
    async fn seat_records(
        &self,
        specs: Vec<NewSeat>,
    ) -> Result<(Vec<SeatRecord>, Vec<SeatToken>), Error> {
        let mut seats = Vec::with_capacity(specs.len());
        let mut players = Vec::new();
        let mut seat_tokens = Vec::new();
        for (i, spec) in specs.into_iter().enumerate() {
            let bot = spec.bot.unwrap_or_else(|| bots::DEFAULT.to_string());
            let holder = match spec.kind {
                SeatKind::Remote => Holder::Remote,
                SeatKind::Bot => Holder::Bot,
            };
            let asked = SeatSpec {
                holder,
                bot: &bot,
                name: spec.name.as_deref(),
                player: spec.player.as_deref(),
            };
            let checked = self.check_seat(asked, &players).await?;
            let player = match checked.player {
                Some(p) => {
                    players.push(p.clone());
                    Some(p)
                }
                // A bot seat is its house bot's player.
                None if spec.kind == SeatKind::Bot => SeatPlayer::house(&bot),
                None => None,
            };
            let name = checked
                .name
                .or_else(|| player.as_ref().map(|p| p.name.clone()));
            let token_sha256 = match spec.kind {
                SeatKind::Remote if spec.token_sha256.is_some() => spec.token_sha256,
                SeatKind::Remote => {
                    let (token, hash) = tokens::new_token()?;
                    seat_tokens.push(SeatToken {
                        seat: i as Seat,
                        token,
                    });
                    Some(hash)
                }
                SeatKind::Bot => None,
            };
            seats.push(SeatRecord {
                kind: spec.kind,
                bot,
                name,
                token_sha256,
                player,
            });
        }
        Ok((seats, seat_tokens))
    }

    /// Consent for the seats of a new match asked for by the holder of
    /// `credential`: each seat may name only the caller's own player,
    /// and only with its key. Seats are first checked as
    /// [`check_seat_spec`] does, so a malformed seat is refused as such.
    ///
    /// # Errors
    /// As [`check_seat_spec`]; `Unauthorized` for a credential that is
    /// not a current key; `ConsentRequired` for a seat naming any other
    /// player, or any player without a key.
    async fn check_consent(
        &self,
        seats: &[NewSeat],
        credential: Option<&str>,
    ) -> Result<(), Error> {
        let mut named: Vec<&str> = Vec::new();
        for seat in seats {
            let Some(player) = seat.player.as_deref() else {
                continue;
            };
            let spec = SeatSpec {
                holder: match seat.kind {
                    SeatKind::Remote => Holder::Remote,
                    SeatKind::Bot => Holder::Bot,
                },
                bot: seat.bot.as_deref().unwrap_or(crate::bots::DEFAULT),
                name: seat.name.as_deref(),
                player: Some(player),
            };
            check_seat_spec(spec, &named, self.limits.max_name_len)?;
            named.push(player);
        }
        if named.is_empty() {
            return Ok(());
        }
        let me = self.caller_player(credential).await?;
        if named.iter().any(|p| me.as_deref() != Some(*p)) {
            return Err(Error::ConsentRequired(CONSENT_DETAIL.into()));
        }
        Ok(())
    }

    /// The move clock of a rated match created without one: the bots'
    /// clock when every client seat is a bot player's, the people's
    /// otherwise. A rated match always has a clock, so that a seat that
    /// stops moving never holds the match (and its rating) forever.
    fn rated_clock(&self, seats: &[SeatRecord]) -> u64 {
        let people = seats.iter().any(|s| {
            s.kind == SeatKind::Remote
                && s.player
                    .as_ref()
                    .is_none_or(|p| p.kind == super::PlayerKind::Human)
        });
        if people {
            self.limits.rated_clock_ms
        } else {
            self.limits.rated_bot_clock_ms
        }
    }

    /// What a rated match records at creation: its pool and each seat's
    /// rating then.
    ///
    /// # Errors
    /// `InvalidRequest` unless the rules are the variant's rated rules and
    /// every seat is a registered player or a house bot.
    async fn rated_setup(&self, rules: &Rules, seats: &[SeatRecord]) -> Result<RatedMatch, Error> {
        if *rules != rating::rated_rules(rules.variant) {
            return Err(Error::InvalidRequest(
                "a rated match is played with the variant's standard rules".into(),
            ));
        }
        let pool = rating::pool(rules.variant);
        let mut before = Vec::with_capacity(seats.len());
        for s in seats {
            let r = match (&s.player, s.kind) {
                (_, SeatKind::Bot) => rating::house_anchor(&s.bot),
                (Some(p), SeatKind::Remote) if !p.is_house() => {
                    self.hooks.rating(&p.id, pool).await?
                }
                _ => None,
            };
            before.push(r.ok_or_else(|| {
                Error::InvalidRequest(
                    "every seat of a rated match is a registered player or a house bot".into(),
                )
            })?);
        }
        Ok(RatedMatch {
            pool: pool.to_string(),
            before,
        })
    }
}
