//! The server's vocabulary: identifiers, modes and results, parsed once at the edge.

use std::fmt;
use std::str::FromStr;

use thiserror::Error;

/// Milliseconds since the Unix epoch. All stored and computed times use it, so a fake clock in
/// tests is just a number.
#[derive(
    Clone,
    Copy,
    Debug,
    PartialEq,
    Eq,
    PartialOrd,
    Ord,
    Hash,
    Default,
    serde::Serialize,
    serde::Deserialize,
)]
#[serde(transparent)]
pub struct Timestamp(pub i64);

impl Timestamp {
    /// The current wall-clock time.
    pub fn now() -> Timestamp {
        let since_epoch =
            std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap_or_default();
        Timestamp(i64::try_from(since_epoch.as_millis()).unwrap_or(i64::MAX))
    }

    /// This time plus `millis` milliseconds.
    pub const fn plus(self, millis: i64) -> Timestamp {
        Timestamp(self.0.saturating_add(millis))
    }

    /// Milliseconds from `earlier` to `self` (negative if `earlier` is later).
    pub const fn since(self, earlier: Timestamp) -> i64 {
        self.0.saturating_sub(earlier.0)
    }
}

/// Text that is not a valid identifier or name of the kind asked for.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[error("{text:?} is not a valid {kind}")]
pub struct ParseIdError {
    pub kind: &'static str,
    pub text: String,
}

/// Letters used in generated identifiers: no look-alikes (0/O, 1/l/I).
const ID_ALPHABET: &[u8] = b"23456789abcdefghijkmnpqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ";

/// A random identifier of `len` letters from [`ID_ALPHABET`].
fn random_id(len: usize) -> String {
    use rand::Rng;
    let mut rng = rand::rng();
    (0..len).map(|_| ID_ALPHABET[rng.random_range(0..ID_ALPHABET.len())] as char).collect()
}

fn is_id(text: &str, len: usize) -> bool {
    text.len() == len && text.bytes().all(|b| ID_ALPHABET.contains(&b))
}

/// Serde through `Display` and `FromStr`: values that travel as their text.
macro_rules! serde_as_text {
    ($name:ident) => {
        impl serde::Serialize for $name {
            fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
                serializer.collect_str(self)
            }
        }

        impl<'de> serde::Deserialize<'de> for $name {
            fn deserialize<D: serde::Deserializer<'de>>(
                deserializer: D,
            ) -> Result<$name, D::Error> {
                let text =
                    <std::borrow::Cow<'de, str> as serde::Deserialize>::deserialize(deserializer)?;
                text.parse().map_err(serde::de::Error::custom)
            }
        }
    };
}

macro_rules! identifier {
    ($(#[$doc:meta])* $name:ident, $kind:literal, $len:literal) => {
        $(#[$doc])*
        #[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub struct $name(String);

        impl $name {
            /// Length in letters.
            pub const LEN: usize = $len;

            /// A new random identifier.
            pub fn generate() -> $name {
                $name(random_id($len))
            }

            /// The identifier as text.
            pub fn as_str(&self) -> &str {
                &self.0
            }
        }

        impl FromStr for $name {
            type Err = ParseIdError;

            fn from_str(text: &str) -> Result<$name, ParseIdError> {
                if is_id(text, $len) {
                    Ok($name(text.to_owned()))
                } else {
                    Err(ParseIdError { kind: $kind, text: text.to_owned() })
                }
            }
        }

        impl fmt::Display for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str(&self.0)
            }
        }

        serde_as_text!($name);
    };
}

identifier!(
    /// A game, as it appears in links (`/game/{id}`).
    GameId, "game id", 10
);
impl GameId {
    /// The id of the game for matchmaking pairing `pairing`: every node derives the same id, so
    /// the game is created once whichever node acts first.
    pub fn from_pairing(pairing: u64) -> GameId {
        let base = ID_ALPHABET.len() as u64;
        let mut rest = pairing;
        let id = (0..GameId::LEN)
            .map(|_| {
                let letter = ID_ALPHABET[(rest % base) as usize] as char;
                rest /= base;
                letter
            })
            .collect();
        GameId(id)
    }

    /// The id of the rematch of game `game`: derived, so that the game itself stays pure and
    /// every node names the same rematch. Each step mixes the whole id (FNV-1a, then
    /// SplitMix64), so a chain of rematches never comes back to an earlier game.
    pub fn rematch_of(game: &GameId) -> GameId {
        let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
        for byte in b"rematch:".iter().chain(game.0.as_bytes()) {
            hash = (hash ^ u64::from(*byte)).wrapping_mul(0x0000_0100_0000_01b3);
        }
        hash = hash.wrapping_add(0x9e37_79b9_7f4a_7c15);
        hash = (hash ^ (hash >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        hash = (hash ^ (hash >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        GameId::from_pairing(hash ^ (hash >> 31))
    }
}

identifier!(
    /// A player: a guest (the id lives in the session cookie) or, later, an account.
    PlayerId, "player id", 16
);
identifier!(
    /// A friend room, as it appears in its invitation link (`/join/{code}`).
    RoomCode, "room code", 8
);

/// A puzzle from a game: the game and the 1-based ply of the mistake it asks to mend, written
/// `k7Hq2mXp9R-23` (as in `/puzzles/{id}`).
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct PuzzleId {
    pub game_id: GameId,
    pub ply: u32,
}

impl fmt::Display for PuzzleId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}-{}", self.game_id, self.ply)
    }
}

impl FromStr for PuzzleId {
    type Err = ParseIdError;

    fn from_str(text: &str) -> Result<PuzzleId, ParseIdError> {
        let error = || ParseIdError { kind: "puzzle id", text: text.to_owned() };
        let (game, ply) = text.split_once('-').ok_or_else(error)?;
        let game_id = game.parse().map_err(|_| error())?;
        // A ply is 1 to 3 digits, no sign and no leading zero, so each puzzle has one id.
        let digits = (1..=3).contains(&ply.len())
            && ply.bytes().all(|b| b.is_ascii_digit())
            && !ply.starts_with('0');
        let ply = ply.parse().ok().filter(|_| digits).ok_or_else(error)?;
        Ok(PuzzleId { game_id, ply })
    }
}

serde_as_text!(PuzzleId);

/// A public nickname: 2–20 characters, letters, digits, spaces, `_`, `-` and `.`, starting and
/// ending with a letter or digit, no double spaces.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Nickname(String);

/// Why a nickname was refused; the message is shown to the user as it is.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum NicknameError {
    #[error("a nickname needs at least 2 characters")]
    TooShort,
    #[error("a nickname has at most 20 characters")]
    TooLong,
    #[error("a nickname may only use letters, digits, spaces, '_', '-' and '.'")]
    BadCharacter,
    #[error("a nickname must start and end with a letter or digit")]
    BadEnds,
    #[error("a nickname cannot contain two spaces in a row")]
    DoubleSpace,
    #[error("a nickname cannot mix alphabets (such as Latin and Cyrillic letters)")]
    MixedScripts,
    #[error("a nickname cannot use letters in special forms (full-width, bold, numerals)")]
    SpecialForms,
    #[error("that name is kept for the site: choose another")]
    Reserved,
}

/// Names the site itself shows for players who are not people choosing a name, or that speak
/// for the site: nobody may appear under them or anything that looks like them
/// ([`looks_reserved`]).
const RESERVED: [&str; 8] = [
    "computer",
    "deleted player",
    "closed account",
    "renamed player",
    "outflank",
    "admin",
    "moderator",
    "system",
];

/// Whether `name` could be read as one of the names kept for the site. Spaces, `_`, `-` and
/// `.` are left out (`Closed-Account`, `DeletedPlayer`); then what is left is a kept name's
/// in any case, with the same [`fold_look_alikes`] (`C0MPUTER`, `Cómputer`), or with the same
/// Unicode confusable skeleton (UTS #39: `Ⅽ`, `ı`, `0`, Cherokee `Ꭺ` written as the letters
/// they look like).
pub fn looks_reserved(name: &str) -> bool {
    let forms = |text: &str| {
        let text: String = text.chars().filter(|c| !matches!(c, ' ' | '_' | '-' | '.')).collect();
        [text.clone(), text.to_lowercase(), text.to_uppercase(), fold_look_alikes(&text)]
            .map(|form| unicode_security::skeleton(&form).collect::<String>())
    };
    let name = forms(name);
    RESERVED.iter().any(|reserved| forms(reserved).iter().any(|form| name.contains(form)))
}

/// What a name looks like, for telling look-alikes apart: one form for the names that read
/// alike. Lower case; accented letters as their base letter (`é` → `e`: the canonical
/// decomposition without its combining marks; `ß` → `ss`, `ø` → `o` and the other Latin
/// letters that do not decompose); the Cyrillic and Greek letters that look like Latin ones as
/// those; the digit `0` as `o`; and `1`, `l` and `i` (so `I`) as `l`. `Ann0` and `anno`,
/// `Bill1`, `BiII1` and `bi1ll`, `José` and `jose` each give one form. Guests' nicknames
/// ([`Nickname::skeleton`]) and accounts' public names (their key) fold the same way.
pub fn fold_look_alikes(text: &str) -> String {
    use unicode_normalization::UnicodeNormalization;
    use unicode_normalization::char::is_combining_mark;

    let mut folded = String::with_capacity(text.len());
    for c in text.chars().flat_map(char::to_lowercase).nfd() {
        if is_combining_mark(c) {
            continue;
        }
        match c {
            'ß' => folded.push_str("ss"),
            'æ' => folded.push_str("ae"),
            'œ' => folded.push_str("oe"),
            'þ' => folded.push_str("th"),
            other => folded.push(match latin_look_alike(other) {
                'ø' => 'o',
                'đ' | 'ð' => 'd',
                'ħ' => 'h',
                'ŧ' => 't',
                '0' => 'o',
                '1' | 'i' | 'ı' | 'ł' | 'ӏ' => 'l',
                letter => letter,
            }),
        }
    }
    folded
}

impl Nickname {
    /// Shortest and longest length, in characters.
    pub const MIN: usize = 2;
    pub const MAX: usize = 20;

    /// Checks a nickname after trimming surrounding white space.
    ///
    /// # Errors
    /// A [`NicknameError`] saying which rule the text breaks.
    pub fn parse(text: &str) -> Result<Nickname, NicknameError> {
        let text = text.trim();
        let count = text.chars().count();
        if count < Self::MIN {
            return Err(NicknameError::TooShort);
        }
        if count > Self::MAX {
            return Err(NicknameError::TooLong);
        }
        if !text.chars().all(|c| c.is_alphanumeric() || matches!(c, ' ' | '_' | '-' | '.')) {
            return Err(NicknameError::BadCharacter);
        }
        let ends_ok = |c: Option<char>| c.is_some_and(char::is_alphanumeric);
        if !ends_ok(text.chars().next()) || !ends_ok(text.chars().last()) {
            return Err(NicknameError::BadEnds);
        }
        if text.contains("  ") {
            return Err(NicknameError::DoubleSpace);
        }
        Ok(Nickname(text.to_owned()))
    }

    /// Checks a nickname a guest chooses: [`Nickname::parse`]'s rules, and one that could pass
    /// for someone else is refused: letters in special forms that stand for plain ones (full-width
    /// `Ｃ`, bold `𝐂`, the numeral `Ⅽ`: the text must be its own NFKC form), letters of two
    /// scripts mixed (a Cyrillic `А` or an Armenian `օ` among Latin letters: UTS #39's
    /// single-script rule), or a name the site shows itself, or any look-alike of one
    /// ([`looks_reserved`]). Whether it looks like an account's public name is the caller's to
    /// check with [`Nickname::skeleton`].
    ///
    /// # Errors
    /// A [`NicknameError`] saying which rule the text breaks.
    pub fn choose(text: &str) -> Result<Nickname, NicknameError> {
        use unicode_normalization::UnicodeNormalization;
        use unicode_security::MixedScript;

        let nickname = Nickname::parse(text)?;
        let text = nickname.as_str();
        if !text.nfkc().eq(text.chars()) {
            return Err(NicknameError::SpecialForms);
        }
        if !text.is_single_script() {
            return Err(NicknameError::MixedScripts);
        }
        if looks_reserved(text) {
            return Err(NicknameError::Reserved);
        }
        Ok(nickname)
    }

    /// What the nickname looks like, for telling look-alikes apart ([`fold_look_alikes`]):
    /// the form an account's public name is unique in, so a guest is checked against accounts
    /// with it. `"Аnn"` (with a Cyrillic `А`), `"ANN"` and `"Ånn"` all give `"ann"`.
    pub fn skeleton(&self) -> String {
        fold_look_alikes(&self.0)
    }

    /// The nickname as text.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

/// The Latin letter a lower-case Cyrillic or Greek letter looks like, or the letter itself.
fn latin_look_alike(c: char) -> char {
    match c {
        'а' | 'α' => 'a',
        'в' | 'β' => 'b',
        'с' | 'ϲ' => 'c',
        'ԁ' => 'd',
        'е' | 'ε' => 'e',
        'һ' | 'н' => 'h',
        'і' | 'ι' => 'i',
        'ј' => 'j',
        'к' | 'κ' => 'k',
        'м' | 'μ' => 'm',
        'η' | 'п' => 'n',
        'о' | 'ο' => 'o',
        'р' | 'ρ' => 'p',
        'ԛ' => 'q',
        'ѕ' => 's',
        'т' | 'τ' => 't',
        'υ' => 'u',
        'ν' => 'v',
        'ԝ' | 'ω' => 'w',
        'х' | 'χ' => 'x',
        'у' | 'γ' => 'y',
        'ζ' => 'z',
        other => other,
    }
}

impl fmt::Display for Nickname {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl serde::Serialize for Nickname {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(&self.0)
    }
}

impl<'de> serde::Deserialize<'de> for Nickname {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Nickname, D::Error> {
        let text = <std::borrow::Cow<'de, str> as serde::Deserialize>::deserialize(deserializer)?;
        Nickname::parse(&text).map_err(serde::de::Error::custom)
    }
}

/// Declares a closed set of values stored and sent as lower-case text.
macro_rules! text_enum {
    ($(#[$doc:meta])* $name:ident, $kind:literal { $($(#[$vdoc:meta])* $variant:ident = $text:literal),+ $(,)? }) => {
        $(#[$doc])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        pub enum $name {
            $($(#[$vdoc])* $variant),+
        }

        impl $name {
            /// Every value.
            pub const ALL: &'static [$name] = &[$($name::$variant),+];

            /// The stored and wire form.
            pub const fn as_str(self) -> &'static str {
                match self {
                    $($name::$variant => $text),+
                }
            }
        }

        impl FromStr for $name {
            type Err = ParseIdError;

            fn from_str(text: &str) -> Result<$name, ParseIdError> {
                match text {
                    $($text => Ok($name::$variant),)+
                    _ => Err(ParseIdError { kind: $kind, text: text.to_owned() }),
                }
            }
        }

        impl fmt::Display for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str(self.as_str())
            }
        }

        serde_as_text!($name);
    };
}

text_enum!(
    /// How a game is played (SPEC §2).
    Mode, "game mode" {
        /// Against the computer: no clock, undo allowed.
        Computer = "computer",
        /// Two people on one device: no clock, undo allowed.
        SameDevice = "same_device",
        /// Two people through a friend link: 30-s clock.
        Friend = "friend",
        /// Random opponent from the quick queue: 30-s clock, unrated.
        Quick = "quick",
        /// Rated game between accounts: 30-s clock.
        Ranked = "ranked",
    }
);

impl Mode {
    /// Whether moves are always timed (every mode between two people at a distance); a game
    /// against the computer is timed when a control was chosen for it.
    pub const fn has_clock(self) -> bool {
        matches!(self, Mode::Friend | Mode::Quick | Mode::Ranked)
    }

    /// Whether a player may take moves back (in an untimed game of the mode).
    pub const fn allows_undo(self) -> bool {
        matches!(self, Mode::Computer | Mode::SameDevice)
    }
}

text_enum!(
    /// Where a game stands.
    GameStatus, "game status" {
        /// Being played.
        Live = "live",
        /// Ended with a result.
        Finished = "finished",
        /// Ended without a result (a side never made its first move in time).
        Aborted = "aborted",
    }
);

text_enum!(
    /// Why a game ended.
    EndReason, "end reason" {
        /// Neither side could move.
        Normal = "normal",
        /// A player resigned.
        Resignation = "resignation",
        /// A player ran out of time.
        Timeout = "timeout",
        /// Both players agreed to a draw.
        AgreedDraw = "agreed_draw",
        /// A side never made its first move; no result.
        Aborted = "aborted",
    }
);

identifier!(
    /// A report of a player to the moderators.
    ReportId, "report id", 12
);

identifier!(
    /// A sanction a moderator put on an account.
    SanctionId, "sanction id", 12
);

text_enum!(
    /// What a player is reported for; `Signal` is the reviews' own flag, never a person's.
    ReportReason, "report reason" {
        /// Letting an engine play for them.
        Engine = "engine",
        /// An abusive public name or nickname.
        Name = "name",
        /// Sandbagging, throwing games, or other rating manipulation.
        Rating = "rating",
        /// Anything else, said in the details.
        Other = "other",
        /// Their reviewed games are far outside their rating band.
        Signal = "signal",
    }
);

text_enum!(
    /// Where a report stands: what its reporter sees, without details.
    ReportStatus, "report status" {
        /// Waiting for a moderator.
        Open = "open",
        /// A moderator sanctioned the player.
        ActedOn = "acted_on",
        /// A moderator found nothing to act on.
        Dismissed = "dismissed",
    }
);

identifier!(
    /// A challenge from one account to another.
    ChallengeId, "challenge id", 12
);

identifier!(
    /// A notification kept for an account.
    NotificationId, "notification id", 12
);

text_enum!(
    /// Where a challenge stands. An open challenge past its expiry reads as `Expired`.
    ChallengeStatus, "challenge status" {
        /// Waiting for the challenged player.
        Open = "open",
        /// Accepted: its game is being played.
        Accepted = "accepted",
        /// Declined by the challenged player (or refused without telling why).
        Declined = "declined",
        /// Withdrawn by its sender.
        Cancelled = "cancelled",
        /// Nobody answered in time.
        Expired = "expired",
    }
);

text_enum!(
    /// The colour a challenger asks to play.
    ColourChoice, "colour" {
        /// Drawn when the challenge is accepted.
        Random = "random",
        Black = "black",
        White = "white",
    }
);

text_enum!(
    /// What a notification is about.
    NotificationKind, "notification kind" {
        /// Someone challenged the player.
        ChallengeReceived = "challenge_received",
        /// The player's challenge was accepted: its game is on.
        ChallengeAccepted = "challenge_accepted",
        /// The player's challenge was declined.
        ChallengeDeclined = "challenge_declined",
        /// A moderator acted on a report the player made.
        ReportActedOn = "report_acted_on",
        /// A daily game waits for the player's move.
        DailyTurn = "daily_turn",
        /// Less than a tenth of a daily game's time for the player's move is left.
        DailyReminder = "daily_reminder",
        /// Someone the player follows started a game with another person.
        FollowedStarted = "followed_started",
        /// The guest's games and puzzles moved to the account the guest signed in with.
        GuestHistoryKept = "guest_history_kept",
    }
);

text_enum!(
    /// What a moderator can do to an account; each can be lifted.
    SanctionKind, "sanction kind" {
        /// Engine assistance: labelled, off the leaderboards, no ranked play, victims refunded.
        Engine = "engine",
        /// The public name is reset: the owner chooses another.
        Name = "name",
        /// Closed: no sign-in, sessions ended.
        Closed = "closed",
    }
);

text_enum!(
    /// Who won a finished game.
    Winner, "winner" {
        Black = "black",
        White = "white",
        Draw = "draw",
    }
);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_puzzle_id_is_its_game_and_ply_and_reads_back() {
        let id = PuzzleId { game_id: "k7Hq2mXp9R".parse().unwrap(), ply: 23 };
        assert_eq!(id.to_string(), "k7Hq2mXp9R-23");
        assert_eq!("k7Hq2mXp9R-23".parse::<PuzzleId>(), Ok(id));
    }

    #[test]
    fn puzzle_ids_with_a_bad_game_or_ply_are_refused() {
        for text in [
            "k7Hq2mXp9R",
            "k7Hq2mXp9R-",
            "k7Hq2mXp9R-0",
            "k7Hq2mXp9R-07",
            "k7Hq2mXp9R-+7",
            "k7Hq2mXp9R-1000",
            "k7Hq2mXp9-23",
            "k7Hq2mXp9R-2-3",
        ] {
            assert!(text.parse::<PuzzleId>().is_err(), "{text}");
        }
    }

    #[test]
    fn generated_ids_parse_back() {
        let id = GameId::generate();
        assert_eq!(id.as_str().parse::<GameId>(), Ok(id.clone()));
        assert_eq!(id.as_str().len(), GameId::LEN);
    }

    #[test]
    fn a_pairing_always_gives_the_same_valid_game_id() {
        let id = GameId::from_pairing(0x1234_5678_9abc_def0);
        assert_eq!(id, GameId::from_pairing(0x1234_5678_9abc_def0));
        assert_ne!(id, GameId::from_pairing(0x1234_5678_9abc_def1));
        assert_eq!(id.as_str().parse::<GameId>(), Ok(id.clone()));
    }

    #[test]
    fn ids_of_the_wrong_length_or_letters_are_refused() {
        for text in ["", "abc", "abcdefghij0", "abcdefgh0O", "../etc/pas"] {
            assert!(text.parse::<GameId>().is_err(), "{text}");
        }
    }

    #[test]
    fn nicknames_are_trimmed_and_checked() {
        assert_eq!(Nickname::parse("  Ann  ").map(|n| n.to_string()), Ok("Ann".into()));
        assert_eq!(Nickname::parse("A"), Err(NicknameError::TooShort));
        assert_eq!(Nickname::parse(&"a".repeat(21)), Err(NicknameError::TooLong));
        assert_eq!(Nickname::parse("<script>"), Err(NicknameError::BadCharacter));
        assert_eq!(Nickname::parse("_ann"), Err(NicknameError::BadEnds));
        assert_eq!(Nickname::parse("an  n"), Err(NicknameError::DoubleSpace));
        assert_eq!(Nickname::parse("Zoë 2").map(|n| n.to_string()), Ok("Zoë 2".into()));
    }

    #[test]
    fn a_chosen_nickname_may_not_mix_alphabets() {
        assert_eq!(Nickname::choose("\u{410}nn"), Err(NicknameError::MixedScripts));
        assert_eq!(Nickname::choose("Анна").map(|n| n.to_string()), Ok("Анна".into()));
        assert_eq!(Nickname::choose("Zoë 2").map(|n| n.to_string()), Ok("Zoë 2".into()));
    }

    #[test]
    fn a_chosen_nickname_may_not_be_a_name_the_site_shows() {
        for name in ["Computer", "computer", "Deleted player", "DELETED PLAYER", "Сomputer"] {
            assert!(Nickname::choose(name).is_err(), "{name}");
        }
        assert_eq!(Nickname::choose("Computer"), Err(NicknameError::Reserved));
        assert_eq!(Nickname::choose("\u{421}omputer"), Err(NicknameError::MixedScripts));
    }

    #[test]
    fn a_chosen_nickname_may_not_look_like_a_name_the_site_shows() {
        for name in [
            "\u{216d}omputer",
            "Ｃｏｍｐｕｔｅｒ",
            "𝐂𝐨𝐦𝐩𝐮𝐭𝐞𝐫",
            "C\u{585}mputer",
            "Adm\u{131}n",
            "\u{13aa}\u{13a0}\u{13b7}\u{13c6}N",
            "C0MPUTER",
            "Adm1n",
            "SYSTEM",
            "De1eted player",
        ] {
            assert!(Nickname::choose(name).is_err(), "{name} was accepted");
        }
        assert_eq!(Nickname::choose("Ｃｏｍｐｕｔｅｒ"), Err(NicknameError::SpecialForms));
        assert_eq!(Nickname::choose("𝐂𝐨𝐦𝐩𝐮𝐭𝐞𝐫"), Err(NicknameError::SpecialForms));
        assert_eq!(Nickname::choose("\u{216d}omputer"), Err(NicknameError::SpecialForms));
        assert_eq!(Nickname::choose("C\u{585}mputer"), Err(NicknameError::MixedScripts));
        assert_eq!(
            Nickname::choose("\u{13aa}\u{13a0}\u{13b7}\u{13c6}N"),
            Err(NicknameError::MixedScripts)
        );
        assert_eq!(Nickname::choose("Adm\u{131}n"), Err(NicknameError::Reserved));
        assert_eq!(Nickname::choose("C0MPUTER"), Err(NicknameError::Reserved));
    }

    #[test]
    fn names_in_one_script_that_look_like_no_kept_name_are_chosen() {
        for name in ["Ann", "Анна", "Zoë 2", "Μαρία", "山田", "José", "Computerfan", "Sys"]
        {
            assert_eq!(Nickname::choose(name).map(|n| n.to_string()), Ok(name.to_owned()));
        }
    }

    #[test]
    fn a_kept_name_in_a_script_of_its_own_is_seen() {
        // All Cherokee: one script, but it reads "SYSTEM".
        let cherokee = "\u{13da}\u{13bd}\u{13da}\u{13a2}\u{13ac}\u{13b7}";
        assert_eq!(Nickname::choose(cherokee), Err(NicknameError::Reserved));
    }

    #[test]
    fn look_alike_nicknames_have_the_same_skeleton() {
        let latin = Nickname::parse("ANN").unwrap();
        let cyrillic = Nickname::parse("Анн").unwrap();
        assert_eq!(latin.skeleton(), "ann");
        assert_eq!(cyrillic.skeleton(), "ahh");
        assert_eq!(Nickname::parse("Аnn").unwrap().skeleton(), "ann");
    }

    #[test]
    fn a_nicknames_skeleton_folds_digits_and_accents_as_a_public_names_key_does() {
        assert_eq!(Nickname::parse("Ann0").unwrap().skeleton(), "anno");
        assert_eq!(Nickname::parse("Ånnö").unwrap().skeleton(), "anno");
        assert_eq!(Nickname::parse("Bi1l").unwrap().skeleton(), "blll");
    }

    #[test]
    fn folding_writes_the_digit_zero_as_the_letter_o() {
        assert_eq!(fold_look_alikes("Ann0"), "anno");
        assert_eq!(fold_look_alikes("anno"), "anno");
    }

    #[test]
    fn folding_writes_one_ell_and_eye_as_one_letter() {
        for name in ["Bill1", "BiII1", "bi1ll", "BILLI", "b1lll"] {
            assert_eq!(fold_look_alikes(name), "bllll", "{name}");
        }
    }

    #[test]
    fn folding_writes_accented_latin_letters_as_their_base_letter() {
        assert_eq!(fold_look_alikes("José"), "jose");
        assert_eq!(fold_look_alikes("jose"), "jose");
        assert_eq!(fold_look_alikes("Ñandú"), "nandu");
        assert_eq!(fold_look_alikes("Zoë"), "zoe");
        assert_eq!(fold_look_alikes("ÅSA"), "asa");
    }

    #[test]
    fn folding_writes_latin_letters_without_a_decomposition_as_plain_ones() {
        assert_eq!(fold_look_alikes("Søren"), "soren");
        assert_eq!(fold_look_alikes("Straße"), "strasse");
        assert_eq!(fold_look_alikes("STRAẞE"), "strasse");
        assert_eq!(fold_look_alikes("Łukasz"), "lukasz");
        assert_eq!(fold_look_alikes("Þór"), "thor");
        assert_eq!(fold_look_alikes("Æsa"), "aesa");
    }

    #[test]
    fn folding_writes_cyrillic_and_greek_look_alikes_as_latin_letters() {
        // Cyrillic А, Greek ο, Cyrillic і: "Aoi" in three scripts.
        assert_eq!(fold_look_alikes("\u{410}\u{3bf}\u{456}"), "aol");
        assert_eq!(fold_look_alikes("Aoi"), "aol");
    }

    #[test]
    fn folding_keeps_letters_that_look_like_no_other() {
        assert_eq!(fold_look_alikes("Anna_2-b"), "anna_2-b");
        assert_eq!(fold_look_alikes("山田"), "山田");
    }

    #[test]
    fn closed_account_is_a_name_the_site_shows() {
        for name in ["Closed account", "closed account", "Closed-Account", "ClosedAccount"] {
            assert_eq!(Nickname::choose(name), Err(NicknameError::Reserved), "{name}");
        }
    }

    #[test]
    fn a_kept_name_with_accents_or_separators_is_still_kept() {
        for name in ["Cómputer", "Deleted_Player", "Ad-min", "Mod.erator"] {
            assert_eq!(Nickname::choose(name), Err(NicknameError::Reserved), "{name}");
        }
    }

    #[test]
    fn modes_round_trip_through_text() {
        for mode in Mode::ALL {
            assert_eq!(mode.as_str().parse::<Mode>(), Ok(*mode));
        }
    }
}

/// A client as limits count it: its IPv4 address, or the /64 network of its IPv6 address (one
/// subscriber's line usually holds a whole /64, so counting single IPv6 addresses would let one
/// client be millions).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ClientKey(std::net::IpAddr);

impl ClientKey {
    pub fn of(address: std::net::IpAddr) -> ClientKey {
        match address.to_canonical() {
            std::net::IpAddr::V6(v6) => {
                let bits = u128::from(v6) & !((1u128 << 64) - 1);
                ClientKey(std::net::IpAddr::V6(bits.into()))
            }
            v4 => ClientKey(v4),
        }
    }
}

impl fmt::Display for ClientKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0 {
            std::net::IpAddr::V6(network) => write!(f, "{network}/64"),
            v4 => v4.fmt(f),
        }
    }
}

/// A client key's text ([`ClientKey`]'s `Display`) that is not one.
#[derive(Clone, Debug, Error, PartialEq, Eq)]
#[error("\"{0}\" is not a client address: expected an IPv4 address or an IPv6 network ending /64")]
pub struct BadClientKey(String);

impl FromStr for ClientKey {
    type Err = BadClientKey;

    /// Reads a key back from its text, as stored with a live game.
    fn from_str(text: &str) -> Result<ClientKey, BadClientKey> {
        let bad = || BadClientKey(text.to_owned());
        let address = match text.strip_suffix("/64") {
            Some(network) => network.parse::<std::net::Ipv6Addr>().map_err(|_| bad())?.into(),
            None => text.parse::<std::net::Ipv4Addr>().map_err(|_| bad())?.into(),
        };
        Ok(ClientKey::of(address))
    }
}

#[cfg(test)]
mod client_key_tests {
    use super::*;

    #[test]
    fn client_keys_round_trip_through_text() {
        for address in ["203.0.113.7", "2001:db8:1:2:3:4:5:6", "::ffff:198.51.100.1"] {
            let key = ClientKey::of(address.parse().unwrap());
            assert_eq!(key.to_string().parse::<ClientKey>(), Ok(key));
        }
    }

    #[test]
    fn a_bare_ipv6_address_or_other_text_is_not_a_client_key() {
        for text in ["2001:db8::1", "2001:db8::/48", "localhost", ""] {
            assert_eq!(text.parse::<ClientKey>(), Err(BadClientKey(text.to_owned())));
        }
    }
}
