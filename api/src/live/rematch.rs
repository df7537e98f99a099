//! Rematch agreement after the end: every human side asks, nobody has left.

use outflank_engine::Color;

use crate::domain::GameId;

use super::CommandError;

/// Who asked for a rematch and who left, by colour index.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(super) struct Rematch {
    asked: [bool; 2],
    left: [bool; 2],
    next_game: Option<GameId>,
}

/// What a rematch request did.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) enum Step {
    /// Recorded; the other side has not asked yet.
    Asked(Color),
    /// Everyone agreed: the new game is this one.
    Started(GameId),
}

/// Who asked for a rematch and who left.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct RematchView {
    pub asked: Vec<Color>,
    pub left: Vec<Color>,
    /// The rematch game, once agreed.
    pub next_game: Option<GameId>,
}

impl Rematch {
    /// Agreed before: the rematch is `next_game` (a game restored after a restart).
    pub(super) fn started(next_game: GameId) -> Rematch {
        Rematch { next_game: Some(next_game), ..Rematch::default() }
    }

    /// The sides in `colors` ask; `computer` is a side that always agrees.
    pub(super) fn ask(
        &mut self,
        colors: &[Color],
        computer: Option<Color>,
        next_game: GameId,
    ) -> Result<Step, CommandError> {
        if self.next_game.is_some() {
            return Err(CommandError::RematchAlreadyStarted);
        }
        if Color::ALL.iter().any(|&c| !colors.contains(&c) && self.left[c as usize]) {
            return Err(CommandError::OpponentLeft);
        }
        if colors.iter().all(|&c| self.asked[c as usize]) {
            return Err(CommandError::RematchAlreadyAsked);
        }
        for &color in colors {
            self.asked[color as usize] = true;
        }
        if let Some(color) = computer {
            self.asked[color as usize] = true;
        }
        if self.asked.iter().all(|&asked| asked) {
            self.next_game = Some(next_game.clone());
            return Ok(Step::Started(next_game));
        }
        // Not everyone asked, so `colors` is a single side.
        Ok(Step::Asked(colors.first().copied().unwrap_or(Color::Black)))
    }

    /// The sides in `colors` leave; returns those that had not left before.
    pub(super) fn leave(&mut self, colors: &[Color]) -> Vec<Color> {
        colors
            .iter()
            .copied()
            .filter(|&c| !std::mem::replace(&mut self.left[c as usize], true))
            .collect()
    }

    pub(super) fn view(&self) -> RematchView {
        let sides =
            |flags: [bool; 2]| Color::ALL.into_iter().filter(|&c| flags[c as usize]).collect();
        RematchView {
            asked: sides(self.asked),
            left: sides(self.left),
            next_game: self.next_game.clone(),
        }
    }
}
