//! Public names: what an account is called on the leaderboard, in games and in profile links.

use std::fmt;

use thiserror::Error;

/// A valid public name: 3 to 20 ASCII letters, digits, `_` or `-`, starting and ending with a
/// letter or digit, so it reads well and sits in a URL as it is. Unique without regard to case.
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
    /// name the site shows itself or speaks with, nor a look-alike of one (`C0mputer`, `Adm1n`;
    /// see [`looks_reserved`](crate::domain::looks_reserved)). Names chosen before this rule
    /// still read back with [`PublicName::parse`].
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

    /// The form uniqueness is checked on: lower case.
    pub fn key(&self) -> String {
        self.0.to_ascii_lowercase()
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
    fn bad_names_say_why() {
        assert_eq!(PublicName::parse("Al"), Err(PublicNameError::Length));
        assert_eq!(PublicName::parse(&"a".repeat(21)), Err(PublicNameError::Length));
        assert_eq!(PublicName::parse("Ann Lee"), Err(PublicNameError::BadCharacter));
        assert_eq!(PublicName::parse("Zoë"), Err(PublicNameError::BadCharacter));
        assert_eq!(PublicName::parse("../x"), Err(PublicNameError::BadCharacter));
        assert_eq!(PublicName::parse("_Ann"), Err(PublicNameError::BadEnds));
    }
}
