//! Endings and agreements: resignation, draws, rematches, leaving.

use outflank_engine::Color;

use super::{GameState, RATED_AFTER_MOVES};
use crate::domain::{EndReason, GameId, Mode, PlayerId, Timestamp};
use crate::live::draw::Offer;
use crate::live::rematch::Step;
use crate::live::{CommandError, Ending, Event, SearchId, Seat};

impl GameState {
    pub(super) fn resign(
        &mut self,
        by: &PlayerId,
        now: Timestamp,
    ) -> Result<Vec<Event>, CommandError> {
        let seat = self.player_seat(by)?;
        self.ensure_live()?;
        let loser = match seat {
            Seat::Black => Color::Black,
            Seat::White => Color::White,
            Seat::Both | Seat::Spectator => self.game.side_to_move(),
        };
        Ok(self.end(Ending::loss(loser, EndReason::Resignation), now))
    }

    pub(super) fn offer_draw(
        &mut self,
        by: &PlayerId,
        now: Timestamp,
    ) -> Result<Vec<Event>, CommandError> {
        let color = self.draw_side(by)?;
        match self.draw.offer(color, self.game.plies().len())? {
            Offer::Made => Ok(vec![Event::DrawOffered { version: self.bump(), by: color }]),
            Offer::Agreed => Ok(self.end(Ending::agreed_draw(), now)),
        }
    }

    pub(super) fn accept_draw(
        &mut self,
        by: &PlayerId,
        now: Timestamp,
    ) -> Result<Vec<Event>, CommandError> {
        let color = self.draw_side(by)?;
        self.draw.check_answer(color)?;
        Ok(self.end(Ending::agreed_draw(), now))
    }

    pub(super) fn decline_draw(&mut self, by: &PlayerId) -> Result<Vec<Event>, CommandError> {
        let color = self.draw_side(by)?;
        self.draw.check_answer(color)?;
        self.draw.clear();
        Ok(vec![Event::DrawDeclined { version: self.bump(), by: color }])
    }

    /// The colour of a player who may offer or answer draws now.
    pub(super) fn draw_side(&self, by: &PlayerId) -> Result<Color, CommandError> {
        let seat = self.player_seat(by)?;
        if !self.mode().has_clock() {
            return Err(CommandError::DrawNotAllowed);
        }
        self.ensure_live()?;
        match seat {
            Seat::Black => Ok(Color::Black),
            Seat::White => Ok(Color::White),
            Seat::Both | Seat::Spectator => Err(CommandError::DrawNotAllowed),
        }
    }

    pub(super) fn ask_rematch(
        &mut self,
        by: &PlayerId,
        next_game: GameId,
    ) -> Result<Vec<Event>, CommandError> {
        let seat = self.player_seat(by)?;
        if self.ending.is_none() {
            return Err(CommandError::GameNotOver);
        }
        let computer = self.setup.computer().map(|(color, _)| color);
        let event = match self.rematch.ask(seat.colors(), computer, next_game)? {
            Step::Asked(color) => Event::RematchAsked { version: self.bump(), by: color },
            Step::Started(game_id) => {
                Event::RematchStarted { version: self.bump(), game_id, setup: self.setup.rematch() }
            }
        };
        Ok(vec![event])
    }

    pub(super) fn leave(
        &mut self,
        by: &PlayerId,
        now: Timestamp,
    ) -> Result<Vec<Event>, CommandError> {
        let seat = self.player_seat(by)?;
        if self.ending.is_none() {
            return match seat {
                Seat::Both => Ok(self.end(Ending::aborted(), now)),
                _ => self.resign(by, now),
            };
        }
        let left = self.rematch.leave(seat.colors());
        Ok(left.into_iter().map(|by| Event::Left { version: self.bump(), by }).collect())
    }

    /// Ends the game: stops the clock, withdraws any draw offer, cancels any search.
    pub(super) fn end(&mut self, ending: Ending, now: Timestamp) -> Vec<Event> {
        let cancelled = self.stop(ending, now);
        let mut events: Vec<Event> = cancelled.map(Event::CancelSearch).into_iter().collect();
        events.push(self.ended_event());
        events
    }

    /// Records the end without an event; returns the search it cancelled. A ranked game that
    /// ends before each side has placed [`RATED_AFTER_MOVES`] discs, other than by the board
    /// filling up, is aborted: a resignation, a timeout or an agreed draw that early moves no
    /// rating.
    pub(super) fn stop(&mut self, ending: Ending, now: Timestamp) -> Option<SearchId> {
        let too_early = self.mode() == Mode::Ranked
            && ending.reason != EndReason::Normal
            && Color::ALL.iter().any(|&color| self.placed(color) < RATED_AFTER_MOVES);
        self.ending = Some(if too_early { Ending::aborted() } else { ending });
        if let Some(clock) = &mut self.clock {
            clock.stop(now);
        }
        self.draw.clear();
        self.search.take().map(|search| search.id)
    }

    pub(super) fn ended_event(&mut self) -> Event {
        Event::Ended {
            version: self.bump(),
            ending: self.ending.unwrap_or_else(Ending::aborted),
            counts: self.game.board().counts(),
        }
    }
}
