//! The external-bot protocol: the arena plays a bot's seat as the server
//! would play a remote seat. For every decision the bot is sent the seat's
//! view exactly as `GET /v1/matches/{id}` shows it to that seat's token
//! (`match_id`, `version`, `seats`, the cards and `legal_actions`), and it
//! answers one of the listed actions, verbatim. The bot is asked only what
//! a client decides: the arena deals each hand itself, as a server with
//! `auto_deal` does.

use std::time::{Duration, Instant};

use super::ArenaError;
use crate::rules::Action;
use crate::rules::view::GameView;
use crate::service::{MatchView, SeatInfo};

/// Most bytes of an unreadable answer quoted in an error.
const QUOTED: usize = 200;

/// What the arena knows of a match beyond the seat's game view: what the
/// API's view adds to it.
pub struct Table {
    /// A match id, unique within the run.
    pub match_id: String,
    /// Actions applied so far (the deals included), as the server counts
    /// its version.
    pub version: u64,
    /// Events the server would have written so far (`match_created` and
    /// the engine's events), as its `last_seq`.
    pub last_seq: u64,
    /// Who sits where.
    pub seats: Vec<SeatInfo>,
}

/// An external bot's answer and how long the HTTP round trip took.
pub struct Answer {
    /// The action chosen.
    pub action: Action,
    /// Wall time from sending the view to reading the answer.
    pub round_trip: Duration,
}

/// Asks the bot at `url` for `view`'s seat's action.
///
/// # Errors
/// [`ArenaError::External`] when the bot cannot be reached, answers a
/// non-2xx status, something that is not an action, or an action that is
/// not legal now (both quoted as JSON).
pub fn ask(
    agent: &ureq::Agent,
    url: &str,
    view: &GameView,
    table: &Table,
) -> Result<Answer, ArenaError> {
    let fail = |detail: String| ArenaError::External {
        url: url.to_string(),
        detail,
    };
    let api_view = MatchView {
        match_id: table.match_id.clone(),
        version: table.version,
        last_seq: table.last_seq,
        seats: table.seats.clone(),
        deadline: None,
        game: view.clone(),
    };
    let body = serde_json::to_vec(&api_view).map_err(|e| fail(e.to_string()))?;
    let start = Instant::now();
    let mut response = agent
        .post(url)
        .header("Content-Type", "application/json")
        .send(&body[..])
        .map_err(|e| fail(e.to_string()))?;
    let text = response
        .body_mut()
        .read_to_string()
        .map_err(|e| fail(e.to_string()))?;
    let round_trip = start.elapsed();
    let action: Action = serde_json::from_str(&text).map_err(|e| {
        let quoted: String = text.chars().take(QUOTED).collect();
        fail(format!(
            "answered something that is not an action ({e}): {quoted}"
        ))
    })?;
    if !view.legal_actions.contains(&action) {
        return Err(fail(format!(
            "answered an action that is not legal now: {}; legal now: {}",
            json(&action),
            json(&view.legal_actions)
        )));
    }
    Ok(Answer { action, round_trip })
}

/// `v` as compact JSON.
pub fn json(v: &impl serde::Serialize) -> String {
    serde_json::to_string(v).unwrap_or_default()
}
