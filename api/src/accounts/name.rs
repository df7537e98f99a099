//! Public names: what an account is called on the leaderboard, in games and in profile links.

use std::fmt;

use thiserror::Error;

/// A valid public name: 3 to 20 ASCII letters, digits, `_` or `-`, starting and ending with a
/// letter or digit, so it reads well and sits in a URL as it is. Unique among look-alikes
/// ([`PublicName::key`]).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct PublicName(String);

/// Why a public name was refused; the message is shown to the user as it is.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum PublicNameError {
    #[error("a public name needs 3 to 20 characters")]
    Length,
    #[error("a public name may only use letters a–z, digits, '_' and '-'")]
    BadCharacter,
    #[error("a public name must start and end with a letter or digit")]
    BadEnds,
    #[error("that name is kept for the site: choose another")]
    Reserved,
}

impl PublicName {
    pub const MIN: usize = 3;
    pub const MAX: usize = 20;

    /// Checks a name after trimming surrounding white space.
    ///
    /// # Errors
    /// A [`PublicNameError`] saying which rule the text breaks.
    pub fn parse(text: &str) -> Result<PublicName, PublicNameError> {
        let text = text.trim();
        if !(Self::MIN..=Self::MAX).contains(&text.chars().count()) {
            return Err(PublicNameError::Length);
        }
        if !text.chars().all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '-')) {
            return Err(PublicNameError::BadCharacter);
        }
        let ends_ok = |c: Option<char>| c.is_some_and(|c| c.is_ascii_alphanumeric());
        if !ends_ok(text.chars().next()) || !ends_ok(text.chars().last()) {
            return Err(PublicNameError::BadEnds);
        }
        Ok(PublicName(text.to_owned()))
    }

    /// Checks a public name an account chooses: [`PublicName::parse`]'s rules, and never a
    /// name the site shows itself or speaks with, nor a look-alike of one (`C0mputer`, `Adm1n`,
    /// `Closed-Account`; see [`looks_reserved`](crate::domain::looks_reserved)). Names chosen
    /// before this rule still read back with [`PublicName::parse`]. This is the one way an
    /// account's public name is chosen.
    ///
    /// # Errors
    /// A [`PublicNameError`] saying which rule the text breaks.
    pub fn choose(text: &str) -> Result<PublicName, PublicNameError> {
        let name = PublicName::parse(text)?;
        if crate::domain::looks_reserved(name.as_str()) {
            return Err(PublicNameError::Reserved);
        }
        Ok(name)
    }

    /// The name as written.
    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// The form uniqueness is checked on, and guests' nicknames are checked against
    /// ([`Nickname::skeleton`](crate::domain::Nickname::skeleton)): the name with its
    /// look-alikes folded ([`fold_look_alikes`](crate::domain::fold_look_alikes)), so `Ann0`
    /// and `anno`, or `Bill1` and `bi1ll`, are one name. Lower case, `0` as `o`, and `1`, `i`
    /// and `l` as `l`; the other folds concern letters a public name does not have.
    pub fn key(&self) -> String {
        crate::domain::fold_look_alikes(&self.0)
    }
}

impl fmt::Display for PublicName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_chosen_public_name_may_not_look_like_a_name_the_site_shows() {
        for name in ["Computer", "C0mputer", "Adm1n", "ADMIN", "moderator", "0utflank", "SYSTEM"] {
            assert_eq!(PublicName::choose(name), Err(PublicNameError::Reserved), "{name}");
        }
        assert_eq!(PublicName::choose("Computerfan").unwrap().as_str(), "Computerfan");
        assert_eq!(PublicName::choose("Ann_2-b").unwrap().as_str(), "Ann_2-b");
    }

    #[test]
    fn letters_digits_underscore_and_dash_are_accepted() {
        assert_eq!(PublicName::parse(" Ann_2-b ").unwrap().as_str(), "Ann_2-b");
    }

    #[test]
    fn the_key_ignores_case() {
        assert_eq!(
            PublicName::parse("Ann").unwrap().key(),
            PublicName::parse("aNN").unwrap().key()
        );
    }

    #[test]
    fn the_key_writes_zero_as_the_letter_o() {
        assert_eq!(PublicName::parse("Ann0").unwrap().key(), "anno");
        assert_eq!(PublicName::parse("ANNO").unwrap().key(), "anno");
    }

    #[test]
    fn the_key_writes_one_ell_and_eye_as_one_letter() {
        for name in ["Bill1", "BiII1", "bi1ll"] {
            assert_eq!(PublicName::parse(name).unwrap().key(), "bllll", "{name}");
        }
    }

    #[test]
    fn the_key_is_a_guests_skeleton_of_the_same_name() {
        for name in ["Ann0", "BiII1", "Jo_se-2"] {
            let nickname = crate::domain::Nickname::parse(name).unwrap();
            assert_eq!(PublicName::parse(name).unwrap().key(), nickname.skeleton(), "{name}");
        }
    }

    #[test]
    fn a_look_alike_of_computer_is_refused_as_reserved() {
        assert_eq!(PublicName::choose("C0MPUTER"), Err(PublicNameError::Reserved));
    }

    #[test]
    fn closed_account_is_refused_as_reserved() {
        for name in ["Closed-Account", "closed_account", "ClosedAccount", "CL0SED-ACC0UNT"] {
            assert_eq!(PublicName::choose(name), Err(PublicNameError::Reserved), "{name}");
        }
    }

    #[test]
    fn deleted_player_is_refused_as_reserved_whatever_joins_the_words() {
        for name in ["Deleted-Player", "deleted_player", "DeletedPlayer", "De1eted_P1ayer"] {
            assert_eq!(PublicName::choose(name), Err(PublicNameError::Reserved), "{name}");
        }
    }

    #[test]
    fn bad_names_say_why() {
        assert_eq!(PublicName::parse("Al"), Err(PublicNameError::Length));
        assert_eq!(PublicName::parse(&"a".repeat(21)), Err(PublicNameError::Length));
        assert_eq!(PublicName::parse("Ann Lee"), Err(PublicNameError::BadCharacter));
        assert_eq!(PublicName::parse("Zoë"), Err(PublicNameError::BadCharacter));
        assert_eq!(PublicName::parse("../x"), Err(PublicNameError::BadCharacter));
        assert_eq!(PublicName::parse("_Ann"), Err(PublicNameError::BadEnds));
    }
}
