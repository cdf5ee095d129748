//! Trump declarations and doubles (docs/rules.md sections 3.3, 3.4 and 10).

use std::fmt;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

use super::card::Suit;
use super::seat::{Seat, Table};
use super::variant::Rules;

/// What was declared: a trump suit or botifarra (no trump).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Trump {
    /// This suit is trump.
    Suit(Suit),
    /// No trump; the hand counts double.
    Botifarra,
}

impl Trump {
    /// The trump suit, if any.
    #[inline]
    pub fn suit(self) -> Option<Suit> {
        match self {
            Trump::Suit(s) => Some(s),
            Trump::Botifarra => None,
        }
    }
}

impl fmt::Display for Trump {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Trump::Suit(s) => write!(f, "{s}"),
            Trump::Botifarra => f.write_str("botifarra"),
        }
    }
}

/// A trump-phase action: a declaration, or handing the choice on.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TrumpChoice {
    /// Declare this trump (a suit or botifarra).
    Declare(Trump),
    /// Hand the choice on: to the partner in the pairs game, to the left in
    /// abarrotada.
    Delegate,
    /// Abarrotada only: delegate to the left with a contro already said.
    Estevet,
}

impl fmt::Display for TrumpChoice {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TrumpChoice::Declare(t) => write!(f, "{t}"),
            TrumpChoice::Delegate => f.write_str("delegate"),
            TrumpChoice::Estevet => f.write_str("estevet"),
        }
    }
}

impl TrumpChoice {
    /// Parses `O`, `C`, `E`, `B` (any case), `botifarra`, `delegate`
    /// (or `passo`) and `estevet`.
    pub fn parse(s: &str) -> Option<TrumpChoice> {
        let lower = s.trim().to_ascii_lowercase();
        match lower.as_str() {
            "botifarra" => Some(TrumpChoice::Declare(Trump::Botifarra)),
            "delegate" | "passo" => Some(TrumpChoice::Delegate),
            "estevet" => Some(TrumpChoice::Estevet),
            _ if lower.len() == 1 => Suit::from_letter(lower.chars().next()?)
                .map(|s| TrumpChoice::Declare(Trump::Suit(s))),
            _ => None,
        }
    }
}

macro_rules! string_serde {
    ($t:ty, $parse:expr, $what:literal) => {
        impl Serialize for $t {
            fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                s.collect_str(self)
            }
        }
        impl<'de> Deserialize<'de> for $t {
            fn deserialize<D: Deserializer<'de>>(d: D) -> Result<$t, D::Error> {
                let s = <std::borrow::Cow<'de, str>>::deserialize(d)?;
                $parse(&s).ok_or_else(|| {
                    serde::de::Error::custom(format!(concat!("unknown ", $what, " {:?}"), s))
                })
            }
        }
    };
}

string_serde!(
    TrumpChoice,
    TrumpChoice::parse,
    "trump choice (expected O, C, E, B, botifarra, delegate or estevet):"
);
string_serde!(
    Trump,
    |s: &str| match TrumpChoice::parse(s) {
        Some(TrumpChoice::Declare(t)) => Some(t),
        _ => None,
    },
    "trump (expected O, C, E, B or botifarra):"
);

/// A doubling call.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Call {
    /// The first double.
    Contro,
    /// The second double.
    Recontro,
    /// The third double.
    SantVicenc,
    /// No double ("knocking on the table").
    Pass,
}

impl Call {
    /// The double said at this level (1 contro, 2 recontro, 3 Sant Vicenç).
    pub fn at_level(level: u8) -> Call {
        match level {
            1 => Call::Contro,
            2 => Call::Recontro,
            _ => Call::SantVicenc,
        }
    }

    /// The API word for the call.
    pub fn as_str(self) -> &'static str {
        match self {
            Call::Contro => "contro",
            Call::Recontro => "recontro",
            Call::SantVicenc => "sant_vicenc",
            Call::Pass => "pass",
        }
    }
}

/// A call said by a seat.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct CallRecord {
    /// Who spoke.
    pub seat: Seat,
    /// What they said.
    pub call: Call,
}

/// The seats still to speak in the current doubling round, in order.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Speakers {
    seats: [Seat; 3],
    len: u8,
    next: u8,
}

impl Speakers {
    /// A round in which these seats speak in this order.
    pub fn of(list: &[Seat]) -> Speakers {
        let mut seats = [0; 3];
        seats[..list.len()].copy_from_slice(list);
        Speakers {
            seats,
            len: list.len() as u8,
            next: 0,
        }
    }

    /// The seat to speak, if the round is not over.
    #[inline]
    pub fn current(&self) -> Option<Seat> {
        (self.next < self.len).then(|| self.seats[self.next as usize])
    }

    /// The current seat passes.
    pub fn pass(&mut self) {
        self.next += 1;
    }
}

/// Who speaks in the round for double `level` (1..=3), or `None` when that
/// double may not be said. `declarer` named the trump; `doublers` said the
/// doubles so far, in order (with an Estevet, the delegating player is the
/// contro-er).
pub fn doubling_round(
    rules: &Rules,
    table: Table,
    level: u8,
    declarer: Seat,
    doublers: &[Seat],
    botifarra: bool,
) -> Option<Speakers> {
    if !(1..=3).contains(&level) || (level == 3 && !rules.sant_vicenc_allowed(botifarra)) {
        return None;
    }
    if table.pairs {
        // The two players of the side that may double now, starting with the
        // first in playing order after the declarer (contro) or after the
        // player who said the previous double.
        let from = if level == 1 {
            declarer
        } else {
            doublers[level as usize - 2]
        };
        return Some(Speakers::of(&[table.after(from, 1), table.after(from, 3)]));
    }
    Some(match level {
        1 => {
            let mut others = [0; 3];
            for k in 1..table.seats {
                others[k as usize - 1] = table.after(declarer, k);
            }
            Speakers::of(&others[..table.seats as usize - 1])
        }
        // Only the declarer may recontro; only the contro-er may say Sant Vicenç.
        2 => Speakers::of(&[declarer]),
        _ => Speakers::of(&[doublers[0]]),
    })
}
