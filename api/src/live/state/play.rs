//! Moves: the person's, the computer's (with its search and delay), and undo.

use outflank_engine::{Color, Move, Square};

use super::{GameState, PendingSearch};
use crate::domain::{PlayerId, Timestamp};
use crate::live::{CommandError, Ending, Event, LastMove, SearchId, SearchRequest, Setup};

impl GameState {
    pub(super) fn play_move(
        &mut self,
        by: &PlayerId,
        square: Square,
        now: Timestamp,
    ) -> Result<Vec<Event>, CommandError> {
        let seat = self.player_seat(by)?;
        self.ensure_live()?;
        if !seat.plays(self.game.side_to_move()) {
            return Err(CommandError::NotYourTurn);
        }
        self.place(square, now)
    }

    pub(super) fn computer_move(
        &mut self,
        search_id: SearchId,
        mv: Move,
        now: Timestamp,
    ) -> Result<Vec<Event>, CommandError> {
        let Some(search) = self.search.as_mut() else { return Ok(Vec::new()) };
        if search.id != search_id || search.reply.is_some() {
            return Ok(Vec::new());
        }
        let square = match mv {
            Move::Place(square) if self.game.board().is_legal(square) => square,
            _ => return Err(CommandError::IllegalComputerMove(mv)),
        };
        if now < search.not_before {
            search.reply = Some(square);
            return Ok(Vec::new());
        }
        self.play_reply(square, now)
    }

    pub(super) fn play_reply(
        &mut self,
        square: Square,
        now: Timestamp,
    ) -> Result<Vec<Event>, CommandError> {
        let search = self.search.take();
        self.place(square, now).map_err(|error| {
            self.search = search;
            match error {
                CommandError::IllegalMove(square) => {
                    CommandError::IllegalComputerMove(Move::Place(square))
                }
                other => other,
            }
        })
    }

    /// Places a disc for the side to move, with the forced pass, clocks, end and next search.
    pub(super) fn place(
        &mut self,
        square: Square,
        now: Timestamp,
    ) -> Result<Vec<Event>, CommandError> {
        let side = self.game.side_to_move();
        let first = self.game.plies().len();
        let outcome =
            self.game.play(Move::Place(square)).map_err(|_| CommandError::IllegalMove(square))?;
        self.has_moved[side as usize] = true;
        let mut events = Vec::new();
        if self.draw.pending() == Some(side.opposite()) {
            self.draw.clear();
            events.push(Event::DrawDeclined { version: self.bump(), by: side });
        }
        let ending = outcome.result.map(Ending::normal);
        let search = match ending {
            Some(ending) => {
                self.stop(ending, now);
                None
            }
            None => self.next_turn(now),
        };
        events.push(Event::Moved {
            version: self.bump(),
            at: now,
            plies: (first..self.game.plies().len()).map(|index| self.ply(index)).collect(),
            last_move: LastMove { number: first + 1, color: side, square, flips: outcome.flipped },
            position: self.position(),
            clocks: self.clocks(now),
        });
        if ending.is_some() {
            events.push(self.ended_event());
        }
        events.extend(search.map(Event::StartSearch));
        Ok(events)
    }

    /// Starts the turn of the side to move: its clock, or the computer's search.
    pub(super) fn next_turn(&mut self, now: Timestamp) -> Option<SearchRequest> {
        let side = self.game.side_to_move();
        if let Some(clock) = &mut self.clock {
            clock.switch(side, now);
        }
        if self.is_computer(side) {
            self.request_search(now.plus(self.timing.computer_delay_ms));
            return self.search_request(now);
        }
        None
    }

    pub(super) fn request_search(&mut self, not_before: Timestamp) {
        self.searches += 1;
        self.search = Some(PendingSearch { id: SearchId(self.searches), not_before, reply: None });
    }

    /// Against the computer: back to just before the person's last move. On one device: back
    /// one move, with the pass it forced.
    pub(super) fn undo(&mut self, by: &PlayerId) -> Result<Vec<Event>, CommandError> {
        self.player_seat(by)?;
        if !self.setup.allows_undo() {
            return Err(CommandError::UndoNotAllowed);
        }
        self.ensure_live()?;
        let human = match self.setup {
            Setup::Computer { color, .. } => Some(color),
            _ => None,
        };
        let target = (self.opening_plies()..self.game.plies().len())
            .rev()
            .find(|&index| {
                matches!(self.game.plies()[index], Move::Place(_))
                    && human.is_none_or(|color| self.ply(index).color == color)
            })
            .ok_or(CommandError::NothingToUndo)?;
        let mut events: Vec<Event> =
            self.search.take().map(|search| Event::CancelSearch(search.id)).into_iter().collect();
        self.game.undo_to(target);
        self.has_moved = Color::ALL.map(|color| self.has_placed(color));
        events.push(Event::Undone {
            version: self.bump(),
            ply_count: target,
            last_move: self.last_move(),
            position: self.position(),
        });
        Ok(events)
    }
}
