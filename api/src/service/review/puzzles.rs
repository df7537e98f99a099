//! Puzzles from a player's own games: where a person lost several discs with one move, in a
//! game not yet decided, and one move among several was clearly best, the position before it
//! becomes a puzzle ("find the best move"), checked against the engine's values stored with
//! it.
//!
//! Made when a game's analysis is done ([`super::Analyses`]): [`candidates`] picks the plies
//! from the review, the engine values every legal move of each, and [`puzzle`] keeps those
//! with one clearly best move. Pure, so the rules of what makes a puzzle are tested alone.

use outflank_engine::analysis::{Class, MISTAKE, PlyReview, PositionValues};
use outflank_engine::{Board, Color, Move, Square};
use serde::{Deserialize, Serialize};
use thiserror::Error;

use crate::domain::{GameId, PlayerId, PuzzleId, Timestamp};
use crate::storage::{DbError, PuzzleRow, Store};

/// Discs a move must lose for its position to become a puzzle: a mistake or worse.
pub const MIN_LOSS: i32 = MISTAKE;
/// Discs by which the best move must beat the second best: one move clearly best.
pub const MIN_MARGIN: i32 = 4;
/// Legal moves a puzzle's position must have at least: a choice worth thinking about.
pub const MIN_MOVES: usize = 3;
/// How far from even (in final discs) the best move may leave the game: beyond it the game is
/// decided, and finding the move that loses by least teaches little.
pub const UNDECIDED: i32 = 20;
/// Puzzles at most from one game, the biggest losses first.
pub const PER_GAME: usize = 5;
/// Candidates valued at most for one game (some have no clearly best move).
pub const CANDIDATES_PER_GAME: usize = 2 * PER_GAME;

/// One legal move's value for the side to move, as stored with a puzzle and sent to clients.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ValuedMove {
    /// `f5` or `pass`.
    #[serde(rename = "move")]
    pub mv: String,
    /// The final disc margin after it and best play on.
    pub value: i32,
    /// Whether the value is the solver's.
    pub exact: bool,
}

impl ValuedMove {
    /// Every move of `values`, best first.
    pub fn all(values: &PositionValues) -> Vec<ValuedMove> {
        values
            .moves
            .iter()
            .map(|value| ValuedMove {
                mv: value.mv.to_string(),
                value: value.value,
                exact: value.exact,
            })
            .collect()
    }
}

/// A ply of a reviewed game that may make a puzzle for `player`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Candidate {
    /// 1-based, as in the review.
    pub ply: usize,
    pub player: PlayerId,
}

/// The plies of `plies` where a person (a seat of `seats` with a player: black, white) lost at
/// least [`MIN_LOSS`] discs with a move that was not forced: the biggest losses first (the
/// earlier ply first among equals), at most [`CANDIDATES_PER_GAME`].
pub fn candidates(plies: &[PlyReview], seats: [Option<&PlayerId>; 2]) -> Vec<Candidate> {
    let mut found: Vec<(i32, Candidate)> = plies
        .iter()
        .filter(|ply| {
            ply.loss >= MIN_LOSS && ply.class != Class::Forced && ply.played != Move::Pass
        })
        .filter_map(|ply| {
            let seat = match ply.color {
                Color::Black => seats[0],
                Color::White => seats[1],
            };
            Some((ply.loss, Candidate { ply: ply.ply, player: seat?.clone() }))
        })
        .collect();
    found.sort_by_key(|(loss, candidate)| (std::cmp::Reverse(*loss), candidate.ply));
    found.into_iter().take(CANDIDATES_PER_GAME).map(|(_, candidate)| candidate).collect()
}

/// The puzzle of `candidate` in `game_id`, whose position before the move was `position` and
/// whose moves are valued in `values`, if it is worth solving: at least [`MIN_MOVES`] legal
/// moves, the best one's value within [`UNDECIDED`] discs of even, better than every other by
/// at least [`MIN_MARGIN`] discs, and not the move played.
pub fn puzzle(
    (game_id, candidate, review): (&GameId, &Candidate, &PlyReview),
    position: Board,
    values: &PositionValues,
    created_at: Timestamp,
) -> Option<PuzzleRow> {
    let margin = values.margin()?;
    let best = values.moves.first()?;
    let worth = values.moves.len() >= MIN_MOVES
        && best.value.abs() <= UNDECIDED
        && margin >= MIN_MARGIN
        && best.mv != review.played;
    if !worth {
        return None;
    }
    let played_value = values.moves.iter().find(|value| value.mv == review.played)?.value;
    let move_values = serde_json::to_string(&ValuedMove::all(values)).ok()?;
    Some(PuzzleRow {
        id: PuzzleId { game_id: game_id.clone(), ply: u32::try_from(candidate.ply).ok()? },
        player_id: candidate.player.clone(),
        position,
        played: review.played,
        loss: (best.value - played_value).max(0),
        solution: best.mv,
        move_values,
        attempts: 0,
        solved_at: None,
        created_at,
    })
}

/// Whether a stored puzzle is still worth solving by today's rules (those of [`puzzle`]):
/// puzzles made under looser rules (a decided position, two legal moves, a best move barely
/// better) are swept away at start-up ([`sweep`]). A puzzle whose values cannot be read is not.
pub fn worth_solving(row: &PuzzleRow) -> bool {
    let Ok(values) = serde_json::from_str::<Vec<ValuedMove>>(&row.move_values) else {
        return false;
    };
    let (Some(best), Some(second)) = (values.first(), values.get(1)) else { return false };
    values.len() >= MIN_MOVES
        && best.value.abs() <= UNDECIDED
        && best.value - second.value >= MIN_MARGIN
        && row.solution != row.played
}

/// Removes every stored puzzle not [`worth_solving`], a page at a time; answers how many.
///
/// # Errors
/// [`DbError`] when the store fails; what was removed before stays removed.
pub async fn sweep(store: &Store) -> Result<u64, DbError> {
    let mut after = None;
    let mut removed = 0;
    loop {
        let page = store.puzzles_after(after.as_ref(), 500).await?;
        let Some(last) = page.last() else { return Ok(removed) };
        after = Some(last.id.clone());
        let unworthy: Vec<PuzzleId> =
            page.iter().filter(|row| !worth_solving(row)).map(|row| row.id.clone()).collect();
        if !unworthy.is_empty() {
            removed += store.remove_puzzles(&unworthy).await?;
        }
    }
}

/// Why an answer to a puzzle was not judged.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum AnswerError {
    #[error("{0} is not a legal move here; the legal moves are shown on the board")]
    Illegal(String),
    #[error("the puzzle's stored values cannot be read")]
    Corrupt,
}

/// How good an answer was.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Verdict {
    /// Whether it is the best move.
    pub correct: bool,
    /// The answer's value, the best move's, and the discs between them.
    pub value: i32,
    pub best_value: i32,
    pub loss: i32,
    /// Whether the values are the solver's.
    pub exact: bool,
}

/// Judges `answer` to `puzzle` by the values stored with it.
///
/// # Errors
/// [`AnswerError::Illegal`] for a move that is not legal in the puzzle's position,
/// [`AnswerError::Corrupt`] when the stored values cannot be read.
pub fn judge(puzzle: &PuzzleRow, answer: Square) -> Result<Verdict, AnswerError> {
    let values: Vec<ValuedMove> =
        serde_json::from_str(&puzzle.move_values).map_err(|_| AnswerError::Corrupt)?;
    let best = values.first().ok_or(AnswerError::Corrupt)?;
    let text = answer.to_string();
    if !puzzle.position.is_legal(answer) {
        return Err(AnswerError::Illegal(text));
    }
    let given = values.iter().find(|value| value.mv == text).ok_or(AnswerError::Corrupt)?;
    Ok(Verdict {
        correct: given.value >= best.value,
        value: given.value,
        best_value: best.value,
        loss: best.value - given.value,
        exact: given.exact && best.exact,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use outflank_engine::analysis::{MoveValue, Source};

    fn review(ply: usize, color: Color, played: Move, loss: i32) -> PlyReview {
        PlyReview {
            ply,
            color,
            played,
            value_before: 0,
            value_after: 0,
            best: vec![Move::Place(Square::D3)],
            best_value: 0,
            played_value: -loss,
            loss,
            exact: false,
            source: Source::Searched { depth: 2 },
            class: Class::for_loss(loss),
            best_line: Vec::new(),
        }
    }

    fn player(letter: char) -> PlayerId {
        format!("guestguestguest{letter}").parse().unwrap()
    }

    fn values(moves: &[(Square, i32)]) -> PositionValues {
        PositionValues {
            moves: moves
                .iter()
                .map(|&(square, value)| MoveValue { mv: Move::Place(square), value, exact: true })
                .collect(),
            best_line: Vec::new(),
        }
    }

    #[test]
    fn a_persons_mistakes_are_candidates_biggest_loss_first() {
        let (ann, bob) = (player('a'), player('b'));
        let plies = [
            review(1, Color::Black, Move::Place(Square::F5), 6),
            review(2, Color::White, Move::Place(Square::D6), 12),
            review(3, Color::Black, Move::Place(Square::C3), 5),
            review(4, Color::White, Move::Pass, 20),
            review(5, Color::Black, Move::Place(Square::D3), 12),
        ];
        let found = candidates(&plies, [Some(&ann), Some(&bob)]);
        let plies_and_players: Vec<(usize, &PlayerId)> =
            found.iter().map(|candidate| (candidate.ply, &candidate.player)).collect();
        assert_eq!(plies_and_players, [(2, &bob), (5, &ann), (1, &ann)]);
    }

    #[test]
    fn the_computers_mistakes_make_no_puzzle() {
        let ann = player('a');
        let plies = [
            review(1, Color::Black, Move::Place(Square::F5), 10),
            review(2, Color::White, Move::Place(Square::D6), 10),
        ];
        let found = candidates(&plies, [None, Some(&ann)]);
        assert_eq!(found, [Candidate { ply: 2, player: ann }]);
    }

    #[test]
    fn at_most_ten_candidates_come_from_one_game() {
        let ann = player('a');
        let plies: Vec<PlyReview> =
            (1..=30).map(|ply| review(ply, Color::Black, Move::Place(Square::F5), 10)).collect();
        assert_eq!(candidates(&plies, [Some(&ann), None]).len(), CANDIDATES_PER_GAME);
    }

    fn made(values: &PositionValues, played: Square) -> Option<PuzzleRow> {
        let game: GameId = "k7Hq2mXp9R".parse().unwrap();
        let candidate = Candidate { ply: 1, player: player('a') };
        let review = review(1, Color::Black, Move::Place(played), 8);
        puzzle((&game, &candidate, &review), Board::start(), values, Timestamp(5))
    }

    /// A puzzle stored under older rules, with `moves` valued so.
    fn stored(moves: &[(&str, i32)], played: Square) -> PuzzleRow {
        let values = values(&[(Square::D3, 4), (Square::C4, 0), (Square::F5, -4)]);
        let mut row = made(&values, played).unwrap();
        let valued: Vec<ValuedMove> = moves
            .iter()
            .map(|&(mv, value)| ValuedMove { mv: mv.into(), value, exact: true })
            .collect();
        row.move_values = serde_json::to_string(&valued).unwrap();
        row
    }

    #[test]
    fn a_stored_puzzle_is_worth_solving_only_by_todays_rules() {
        assert!(worth_solving(&stored(&[("d3", 4), ("c4", 0), ("f5", -4)], Square::F5)));
        // Two legal moves; a decided position (the walkthrough's −56 against −64); a best move
        // barely better than the next.
        assert!(!worth_solving(&stored(&[("d3", 4), ("c4", -4)], Square::C4)));
        assert!(!worth_solving(&stored(&[("d3", -56), ("c4", -64), ("f5", -64)], Square::C4)));
        assert!(!worth_solving(&stored(&[("d3", 4), ("c4", 2), ("f5", -4)], Square::F5)));
        let mut unreadable = stored(&[("d3", 4), ("c4", 0), ("f5", -4)], Square::F5);
        unreadable.move_values = "not json".into();
        assert!(!worth_solving(&unreadable));
    }

    #[actix_web::test]
    async fn the_sweep_removes_the_puzzles_not_worth_solving_and_keeps_the_others() {
        use crate::storage::NewGame;
        let store = Store::connect("sqlite::memory:").await.unwrap();
        let game: GameId = "k7Hq2mXp9R".parse().unwrap();
        store.create_game(&NewGame::on_one_device(game, Timestamp(1))).await.unwrap();
        let good = stored(&[("d3", 4), ("c4", 0), ("f5", -4)], Square::F5);
        let mut bad = stored(&[("d3", -56), ("c4", -64), ("f5", -64)], Square::C4);
        bad.id.ply = 2;
        store.add_puzzles(&[good.clone(), bad]).await.unwrap();
        assert_eq!(sweep(&store).await.unwrap(), 1);
        assert_eq!(store.player_puzzles(&good.player_id, 10).await.unwrap(), vec![good]);
        assert_eq!(sweep(&store).await.unwrap(), 0);
    }

    #[test]
    fn one_clearly_best_move_makes_a_puzzle_with_every_value() {
        let values = values(&[(Square::D3, 4), (Square::C4, 0), (Square::F5, -4)]);
        let made = made(&values, Square::F5).unwrap();
        assert_eq!(made.id.to_string(), "k7Hq2mXp9R-1");
        assert_eq!(
            (made.solution, made.played, made.loss),
            (Move::Place(Square::D3), Move::Place(Square::F5), 8)
        );
        assert_eq!(
            made.move_values,
            r#"[{"move":"d3","value":4,"exact":true},{"move":"c4","value":0,"exact":true},{"move":"f5","value":-4,"exact":true}]"#
        );
    }

    #[test]
    fn two_moves_near_the_best_make_no_puzzle() {
        let values = values(&[(Square::D3, 4), (Square::C4, 1), (Square::F5, -4)]);
        assert_eq!(made(&values, Square::F5), None, "3 discs between the two best");
        let lone = self::values(&[(Square::D3, 4)]);
        assert_eq!(made(&lone, Square::D3), None);
    }

    #[test]
    fn a_position_with_fewer_than_three_moves_makes_no_puzzle() {
        // The case a new player met first: two moves, the one played among them.
        let two = values(&[(Square::D3, -56), (Square::C4, -64)]);
        assert_eq!(made(&two, Square::C4), None);
        let two_even = values(&[(Square::D3, 4), (Square::C4, -6)]);
        assert_eq!(made(&two_even, Square::C4), None);
    }

    #[test]
    fn a_game_already_decided_makes_no_puzzle() {
        let lost = values(&[(Square::D3, -22), (Square::C4, -30), (Square::F5, -40)]);
        assert_eq!(made(&lost, Square::F5), None);
        let won = values(&[(Square::D3, 21), (Square::C4, 10), (Square::F5, 2)]);
        assert_eq!(made(&won, Square::F5), None);
        let edge = values(&[(Square::D3, -20), (Square::C4, -30), (Square::F5, -40)]);
        assert!(made(&edge, Square::F5).is_some(), "20 discs from even is not decided yet");
    }

    #[test]
    fn the_best_move_played_makes_no_puzzle() {
        let values = values(&[(Square::D3, 4), (Square::C4, -1), (Square::F5, -4)]);
        assert_eq!(made(&values, Square::D3), None);
    }

    #[test]
    fn an_answer_is_right_only_when_it_is_the_best_move() {
        let values =
            values(&[(Square::D3, 4), (Square::C4, 0), (Square::F5, -4), (Square::E6, -6)]);
        let puzzle = made(&values, Square::F5).unwrap();
        let right = judge(&puzzle, Square::D3).unwrap();
        assert_eq!(right, Verdict { correct: true, value: 4, best_value: 4, loss: 0, exact: true });
        let wrong = judge(&puzzle, Square::C4).unwrap();
        assert_eq!(
            wrong,
            Verdict { correct: false, value: 0, best_value: 4, loss: 4, exact: true }
        );
        assert_eq!(judge(&puzzle, Square::A1), Err(AnswerError::Illegal("a1".into())));
    }
}
