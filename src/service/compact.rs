//! The compact layout of a stored match (format 1).
//!
//! A match is stored as two things:
//!
//! - its **setup**, written once when the match is created: the character
//!   `1` (the format) followed by the JSON of the record as it stood before
//!   its first move (rules, seed, seats, options). Being JSON, a field added
//!   to the record or its seats needs no change here; a field that changes
//!   during a match must not live in the record's setup part, but be
//!   derived from the moves;
//! - its **log**, one entry appended per commit: the moves the commit made,
//!   two characters each, then `~` and the move clock's deadline when one
//!   runs.
//!
//! A move is 12 bits written as two characters of the URL-safe base64
//! alphabet: who made it (2 bits: the client, a house bot for its seat, a
//! house bot standing in on a timeout), the seat (2 bits) and the action
//! (8 bits). Loading a match replays its moves on the setup with the rules
//! engine, which also gives back every event (the match's events are a
//! function of its moves), and any earlier version (for the answer to an
//! idempotent retry). A move costs 2 bytes instead of the whole record.
//!
//! Matches stored before this layout (format 0: the whole record as JSON,
//! beginning with `{`) still load and play on in their own layout.

use super::Error;
use super::events::{self, EventBody, ServiceEvent, StoredEvent};
use super::record::MatchRecord;
use crate::rules::{
    Action, Call, Card, Ending, Event, Match, Move, Seat, Suit, Trump, TrumpChoice,
};

/// The first character of a format-1 setup.
pub const FORMAT_1: char = '1';

/// The 64 characters a move's two sextets are written with.
const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

/// The action code of a resignation.
const RESIGN: u8 = 255;
/// The action code of resigning the match.
const RESIGN_MATCH: u8 = 254;
/// The action code of an abort.
const ABORT: u8 = 253;
/// The action code of an abandonment (the server, for the absent seat).
const ABANDON: u8 = 252;
/// The action code of a claim of victory against seat 0; against seat
/// `s`, `CLAIM + s`.
const CLAIM: u8 = 248;
/// The action code of playing card 0; card `i` is `PLAY + i`.
const PLAY: u8 = 16;

/// Who made a move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Actor {
    /// The seat's client (or the server without a bot: an automatic deal,
    /// a forfeit on a timeout).
    Client = 0,
    /// The seat's house bot.
    House = 1,
    /// The seat's house bot standing in when the move clock ran out.
    Timeout = 2,
}

impl Actor {
    /// The `reason` of the `bot_acted` event of a bot's move.
    fn reason(self) -> Option<&'static str> {
        match self {
            Actor::Client => None,
            Actor::House => Some("house"),
            Actor::Timeout => Some("timeout"),
        }
    }
}

fn action_code(a: Action) -> u8 {
    match a {
        Action::Deal => 0,
        Action::Trump { choice } => match choice {
            TrumpChoice::Declare(Trump::Suit(s)) => 1 + s as u8,
            TrumpChoice::Declare(Trump::Botifarra) => 5,
            TrumpChoice::Delegate => 6,
            TrumpChoice::Estevet => 7,
        },
        Action::Double { call } => match call {
            Call::Contro => 8,
            Call::Recontro => 9,
            Call::SantVicenc => 10,
            Call::Pass => 11,
        },
        Action::Play { card } => PLAY + card.index(),
    }
}

fn action_of(code: u8) -> Option<Action> {
    let trump = |choice| Some(Action::Trump { choice });
    let double = |call| Some(Action::Double { call });
    match code {
        0 => Some(Action::Deal),
        1..=4 => trump(TrumpChoice::Declare(Trump::Suit(Suit::from_index(
            code - 1,
        )))),
        5 => trump(TrumpChoice::Declare(Trump::Botifarra)),
        6 => trump(TrumpChoice::Delegate),
        7 => trump(TrumpChoice::Estevet),
        8 => double(Call::Contro),
        9 => double(Call::Recontro),
        10 => double(Call::SantVicenc),
        11 => double(Call::Pass),
        _ => Card::from_index(code.checked_sub(PLAY)?).map(|card| Action::Play { card }),
    }
}

fn ending_code(e: Ending) -> u8 {
    match e {
        Ending::Resigned => RESIGN_MATCH,
        Ending::Aborted => ABORT,
        Ending::Abandoned => ABANDON,
        Ending::Claimed { against } => CLAIM + (against & 3),
    }
}

fn ending_of(code: u8) -> Option<Ending> {
    match code {
        RESIGN_MATCH => Some(Ending::Resigned),
        ABORT => Some(Ending::Aborted),
        ABANDON => Some(Ending::Abandoned),
        CLAIM..ABANDON => Some(Ending::Claimed {
            against: (code - CLAIM) as Seat,
        }),
        _ => None,
    }
}

/// Appends `mv` made by `actor` to `out` (two characters).
fn push_move(out: &mut String, mv: Move, actor: Actor) {
    let (seat, code) = match mv {
        Move::Act(seat, a) => (seat, action_code(a)),
        Move::Resign(seat) => (seat, RESIGN),
        Move::End(seat, ending) => (seat, ending_code(ending)),
    };
    let word = (actor as u16) << 10 | (u16::from(seat) & 3) << 8 | u16::from(code);
    out.push(char::from(ALPHABET[usize::from(word >> 6)]));
    out.push(char::from(ALPHABET[usize::from(word & 63)]));
}

fn sextet(c: u8) -> Option<u16> {
    ALPHABET.iter().position(|&a| a == c).map(|i| i as u16)
}

/// The move written as `pair`, and who made it.
fn read_move(pair: &[u8]) -> Option<(Move, Actor)> {
    let [hi, lo] = pair else { return None };
    let word = sextet(*hi)? << 6 | sextet(*lo)?;
    let actor = match word >> 10 {
        0 => Actor::Client,
        1 => Actor::House,
        2 => Actor::Timeout,
        _ => return None,
    };
    let seat = ((word >> 8) & 3) as u8;
    let code = (word & 0xff) as u8;
    let mv = match code {
        RESIGN => Move::Resign(seat),
        CLAIM.. => Move::End(seat, ending_of(code)?),
        _ => Move::Act(seat, action_of(code)?),
    };
    Some((mv, actor))
}

/// The moves a commit made, read from the events it appends: each move
/// leaves exactly one event naming it (a deal, a trump choice or hand-on,
/// a doubling call, a card, a forfeit), preceded by `bot_acted` when a
/// house bot made it.
pub fn moves_of(events: &[StoredEvent]) -> Vec<(Move, Actor)> {
    let mut out = Vec::with_capacity(events.len());
    let mut actor = Actor::Client;
    for e in events {
        let mv = match &e.event {
            EventBody::Service(ServiceEvent::BotActed { reason, .. }) => {
                actor = if reason == "timeout" {
                    Actor::Timeout
                } else {
                    Actor::House
                };
                continue;
            }
            EventBody::Service(_) => continue,
            EventBody::Engine(e) => match *e {
                Event::HandDealt { dealer, .. } => Move::Act(dealer, Action::Deal),
                Event::Delegated { seat, estevet, .. } => {
                    let choice = if estevet {
                        TrumpChoice::Estevet
                    } else {
                        TrumpChoice::Delegate
                    };
                    Move::Act(seat, Action::Trump { choice })
                }
                Event::TrumpChosen { seat, trump } => Move::Act(
                    seat,
                    Action::Trump {
                        choice: TrumpChoice::Declare(trump),
                    },
                ),
                Event::DoubleCalled { seat, call, .. } => Move::Act(seat, Action::Double { call }),
                Event::CardPlayed { seat, card } => Move::Act(seat, Action::Play { card }),
                Event::HandForfeited { seat, .. } => Move::Resign(seat),
                Event::MatchEnded { seat, ending } => Move::End(seat, ending),
                Event::TrickWon { .. } | Event::HandScored { .. } | Event::MatchOver { .. } => {
                    continue;
                }
            },
        };
        out.push((mv, std::mem::replace(&mut actor, Actor::Client)));
    }
    out
}

/// The log entry of one commit: its moves, then the deadline if any.
pub fn entry(moves: &[(Move, Actor)], deadline_ms: Option<u64>) -> String {
    let mut out = String::with_capacity(moves.len() * 2 + 16);
    for &(mv, actor) in moves {
        push_move(&mut out, mv, actor);
    }
    if let Some(d) = deadline_ms {
        out.push('~');
        out.push_str(&d.to_string());
    }
    out
}

/// The setup of a new match: format `1` and the record before its first
/// move (the rules engine's starting state of the same rules and seed).
///
/// # Errors
/// `Internal` if the rules no longer validate or it does not serialize.
pub fn setup_of(rec: &MatchRecord) -> Result<String, Error> {
    let mut start = rec.clone();
    start.game = Match::new(rec.game.rules.clone(), rec.game.seed)
        .map_err(|e| Error::Internal(format!("stored rules: {e}")))?;
    start.version = 0;
    start.deadline_ms = None;
    start.missed = [0; 4];
    let mut out = String::from(FORMAT_1);
    out.push_str(&serde_json::to_string(&start)?);
    Ok(out)
}

/// Which events a replay hands back: those numbered `after + 1 ..=
/// after + limit`.
#[derive(Debug, Default)]
pub struct Window {
    /// Events up to this number are skipped.
    pub after: u64,
    /// At most this many are kept.
    pub limit: usize,
    /// The events kept, with their numbers.
    pub events: Vec<(u64, StoredEvent)>,
}

/// A match rebuilt from its setup and log.
pub struct Replayed {
    /// The record at the version replayed to.
    pub rec: MatchRecord,
    /// The log entries replayed.
    pub entries: u64,
    /// The number of the last event.
    pub last_seq: u64,
}

/// Counts events and keeps those in the window.
struct Sink<'a> {
    seq: u64,
    window: Option<&'a mut Window>,
}

impl Sink<'_> {
    /// Numbers the next event; `true` when the window wants it.
    fn next(&mut self) -> bool {
        self.seq += 1;
        self.window
            .as_ref()
            .is_some_and(|w| self.seq > w.after && self.seq - w.after <= w.limit as u64)
    }

    fn keep(&mut self, e: StoredEvent) {
        if let Some(w) = self.window.as_mut() {
            w.events.push((self.seq, e));
        }
    }
}

fn corrupt(what: &str) -> Error {
    Error::Internal(format!("stored match: {what}"))
}

/// Rebuilds a format-1 match from its `setup` and `log`, up to version
/// `upto` (the whole log when `None`), keeping the events `window` asks for.
///
/// # Errors
/// `Internal` for a setup or entry that does not read back, or a move the
/// engine refuses.
pub fn replay(
    setup: &str,
    log: &[String],
    upto: Option<u64>,
    window: Option<&mut Window>,
) -> Result<Replayed, Error> {
    let json = setup
        .strip_prefix(FORMAT_1)
        .ok_or_else(|| corrupt("unknown format"))?;
    let mut rec: MatchRecord = serde_json::from_str(json)?;
    let mut sink = Sink { seq: 0, window };
    if sink.next() {
        sink.keep(events::match_created(
            rec.game.dealer,
            rec.game.first_dealer_card,
        ));
    }
    let entries = run(&mut rec, log, upto, &mut sink)?;
    rec.last_seq = Some(sink.seq);
    Ok(Replayed {
        rec,
        entries,
        last_seq: sink.seq,
    })
}

/// Plays the log entries `log` on `rec` (a record read back before, with
/// every entry up to these); returns how many entries it played.
///
/// # Errors
/// As [`replay`]'s.
pub fn apply(rec: &mut MatchRecord, log: &[String]) -> Result<u64, Error> {
    let mut sink = Sink {
        seq: rec.last_seq.unwrap_or(0),
        window: None,
    };
    let entries = run(rec, log, None, &mut sink)?;
    rec.last_seq = Some(sink.seq);
    Ok(entries)
}

fn run(
    rec: &mut MatchRecord,
    log: &[String],
    upto: Option<u64>,
    sink: &mut Sink<'_>,
) -> Result<u64, Error> {
    let mut engine: Vec<Event> = Vec::new();
    let mut entries = 0;
    for e in log {
        if upto.is_some_and(|v| rec.version >= v) {
            break;
        }
        let (moves, deadline) = match e.split_once('~') {
            Some((m, d)) => (m, Some(d.parse().map_err(|_| corrupt("deadline"))?)),
            None => (e.as_str(), None),
        };
        for pair in moves.as_bytes().chunks(2) {
            let (mv, actor) = read_move(pair).ok_or_else(|| corrupt("move"))?;
            let service = match (actor.reason(), mv) {
                (Some(reason), Move::Act(seat, action)) => {
                    let bot = &rec
                        .seats
                        .get(usize::from(seat))
                        .ok_or_else(|| corrupt("seat"))?
                        .bot;
                    Some(events::bot_acted(seat, bot, &action, reason))
                }
                _ => None,
            };
            rec.game
                .perform(mv, &mut engine)
                .map_err(|e| corrupt(&format!("move {mv:?} refused: {e}")))?;
            rec.note(mv, actor);
            rec.version += 1;
            // Every event of a step carries the version it produced and
            // the seat to act after it, as when it was first made.
            let (version, turn) = (Some(rec.version), rec.game.turn());
            let bodies = service
                .map(EventBody::Service)
                .into_iter()
                .chain(engine.drain(..).map(EventBody::Engine));
            for event in bodies {
                if sink.next() {
                    sink.keep(StoredEvent {
                        event,
                        version,
                        turn,
                    });
                }
            }
        }
        rec.deadline_ms = deadline;
        entries += 1;
    }
    Ok(entries)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_action_and_actor_reads_back() {
        let mut all: Vec<Action> = (0..=255).filter_map(action_of).collect();
        assert_eq!(all.len(), 1 + 7 + 4 + 48);
        all.dedup();
        assert_eq!(all.len(), 60);
        for (i, &a) in all.iter().enumerate() {
            assert_eq!(action_of(action_code(a)), Some(a));
            let seat = (i % 4) as u8;
            let endings = [
                Ending::Resigned,
                Ending::Aborted,
                Ending::Abandoned,
                Ending::Claimed { against: 3 - seat },
            ];
            for actor in [Actor::Client, Actor::House, Actor::Timeout] {
                let ends = endings.map(|e| Move::End(seat, e));
                for mv in [Move::Act(seat, a), Move::Resign(seat)]
                    .into_iter()
                    .chain(ends)
                {
                    let mut s = String::new();
                    push_move(&mut s, mv, actor);
                    assert_eq!(s.len(), 2);
                    assert_eq!(read_move(s.as_bytes()), Some((mv, actor)));
                }
            }
        }
        assert_eq!(read_move(b"//"), None);
        assert_eq!(read_move(b"A"), None);
        assert_eq!(entry(&[], Some(17)), "~17");
    }
}
