//! The exact solver against a brute-force minimax, on positions reached by random play from
//! the start, plus passes, finished games, limits, determinism and one published position.

use std::sync::atomic::AtomicBool;

use outflank_engine::solve::{
    Goal, Scoring, Solution, SolveError, SolveOptions, solve, solve_with,
};
use outflank_engine::{Board, Move, Square};

/// A small deterministic random number generator (Knuth's MMIX LCG, upper bits).
struct Lcg(u64);

impl Lcg {
    fn below(&mut self, n: usize) -> usize {
        self.0 =
            self.0.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1_442_695_040_888_963_407);
        ((self.0 >> 33) % n as u64) as usize
    }
}

/// Plays `mv`, which must be legal.
fn play(board: &Board, mv: Move) -> Board {
    board.play(mv).expect("a legal move")
}

/// The legal moves of `board`: its squares, or a pass, or nothing once the game is over.
fn moves(board: &Board) -> Vec<Move> {
    if board.is_game_over() {
        Vec::new()
    } else if board.has_no_moves() {
        vec![Move::Pass]
    } else {
        board.legal_moves().into_iter().map(Move::Place).collect()
    }
}

/// The final score of a finished game for the side to move.
fn final_score(board: &Board, scoring: Scoring) -> i32 {
    let own = board.player().count() as i32;
    let theirs = board.opponent().count() as i32;
    let diff = own - theirs;
    match scoring {
        Scoring::Discs => diff,
        Scoring::EmptiesToWinner => diff + diff.signum() * board.empty().count() as i32,
    }
}

/// Plain negamax over the whole game tree, no pruning.
fn minimax(board: &Board, scoring: Scoring) -> i32 {
    let options = moves(board);
    if options.is_empty() {
        return final_score(board, scoring);
    }
    options.into_iter().map(|mv| -minimax(&play(board, mv), scoring)).max().expect("a move")
}

/// Every position met in `games` random games from the start once `min..=max` empties remain,
/// thinned to one in `keep`.
fn random_positions(seed: u64, games: usize, min: u32, max: u32) -> Vec<Board> {
    let mut rng = Lcg(seed);
    let mut found = Vec::new();
    for _ in 0..games {
        let mut board = Board::start();
        loop {
            let empties = board.empty().count();
            if empties < min {
                break;
            }
            if empties <= max {
                found.push(board);
            }
            let options = moves(&board);
            if options.is_empty() {
                break;
            }
            board = play(&board, options[rng.below(options.len())]);
        }
    }
    found
}

/// One position per random game, with 8 to 10 empties.
fn sample_positions(seed: u64) -> Vec<Board> {
    let mut rng = Lcg(seed ^ 0x5EED);
    (0..24)
        .map(|game| {
            let target = 8 + rng.below(3) as u32;
            let all = random_positions(seed.wrapping_add(game), 1, target, target);
            all.first().copied().unwrap_or_else(Board::start)
        })
        .filter(|board| board.empty().count() <= 10)
        .collect()
}

fn options(scoring: Scoring, goal: Goal) -> SolveOptions<'static> {
    SolveOptions { scoring, goal, ..SolveOptions::default() }
}

/// Checks score and best move of `board` against minimax for one scoring and goal.
fn check(board: &Board, scoring: Scoring, goal: Goal) {
    let exact = minimax(board, scoring);
    let solution = solve_with(board, &options(scoring, goal)).expect("no limits");
    let expected = match goal {
        Goal::Exact => exact,
        Goal::WinLossDraw => exact.signum(),
    };
    assert_eq!(solution.score, expected, "{scoring:?} {goal:?} score of {board}");
    let best = solution.best.expect("the game is not over");
    let after = -minimax(&play(board, best), scoring);
    match goal {
        Goal::Exact => assert_eq!(after, exact, "{best} does not reach the score in {board}"),
        Goal::WinLossDraw => {
            assert_eq!(
                after.signum(),
                exact.signum(),
                "{best} does not keep the result in {board}"
            );
        }
    }
}

#[test]
fn exact_disc_scores_and_best_moves_match_minimax() {
    let positions = sample_positions(1);
    assert!(positions.len() >= 20);
    for board in &positions {
        check(board, Scoring::Discs, Goal::Exact);
    }
}

#[test]
fn exact_empties_to_winner_scores_and_best_moves_match_minimax() {
    for board in &sample_positions(2) {
        check(board, Scoring::EmptiesToWinner, Goal::Exact);
    }
}

#[test]
fn win_loss_draw_gives_the_sign_of_the_exact_score() {
    for board in &sample_positions(3) {
        check(board, Scoring::Discs, Goal::WinLossDraw);
        check(board, Scoring::EmptiesToWinner, Goal::WinLossDraw);
    }
}

#[test]
fn a_side_that_must_pass_gets_pass_as_best_move_and_the_minimax_score() {
    let mut passes: Vec<Board> =
        random_positions(7, 400, 2, 12).into_iter().filter(|board| board.must_pass()).collect();
    passes.dedup();
    assert!(passes.len() >= 5, "found only {} positions with a pass", passes.len());
    for board in passes.iter().take(20) {
        for scoring in [Scoring::Discs, Scoring::EmptiesToWinner] {
            let solution = solve_with(board, &options(scoring, Goal::Exact)).expect("no limits");
            assert_eq!(solution.best, Some(Move::Pass), "{board}");
            assert_eq!(solution.score, minimax(board, scoring), "{board}");
        }
    }
}

#[test]
fn the_side_to_move_passes_when_only_the_opponent_can_take_the_last_square() {
    // Black has no move; White takes h8 flipping h5-h7 and e5-g7: White 39, Black 25.
    let board: Board = format!("{}{}- X", "O".repeat(32), "X".repeat(31)).parse().unwrap();
    assert_eq!(
        solve(&board),
        Solution { score: -14, best: Some(Move::Pass), nodes: solve(&board).nodes }
    );
}

#[test]
fn a_finished_game_has_no_best_move_and_scores_its_disc_difference() {
    // The shortest game: Black 13, White 0, White to move with 51 empties.
    let moves = [
        Square::D3,
        Square::C3,
        Square::B3,
        Square::D2,
        Square::E1,
        Square::D6,
        Square::D7,
        Square::E3,
        Square::F4,
    ];
    let board =
        moves.into_iter().fold(Board::start(), |board, square| play(&board, Move::Place(square)));
    assert!(board.is_game_over());
    let discs = solve(&board);
    assert_eq!((discs.score, discs.best), (-13, None));
    let published = solve_with(&board, &options(Scoring::EmptiesToWinner, Goal::Exact)).unwrap();
    assert_eq!((published.score, published.best), (-64, None));
    let sign = solve_with(&board, &options(Scoring::Discs, Goal::WinLossDraw)).unwrap();
    assert_eq!((sign.score, sign.best), (-1, None));

    let full: Board = format!("{}{} O", "X".repeat(30), "O".repeat(34)).parse().unwrap();
    assert_eq!((solve(&full).score, solve(&full).best), (4, None));
}

/// Above minimax's reach (where the table, enhanced transposition cutoffs and ordering
/// searches come in): a position's score is the best of its children's, each solved afresh.
#[test]
fn a_score_is_the_best_of_the_scores_after_each_move_at_17_empties() {
    for board in random_positions(21, 2, 17, 17) {
        for scoring in [Scoring::Discs, Scoring::EmptiesToWinner] {
            let options = options(scoring, Goal::Exact);
            let solution = solve_with(&board, &options).unwrap();
            let children = moves(&board)
                .into_iter()
                .map(|mv| (mv, -solve_with(&play(&board, mv), &options).unwrap().score));
            let best = children.clone().map(|(_, score)| score).max().unwrap();
            assert_eq!(solution.score, best, "{board}");
            let chosen = children.clone().find(|&(mv, _)| Some(mv) == solution.best).unwrap();
            assert_eq!(chosen.1, best, "{board}");
            let sign = solve_with(&board, &SolveOptions { goal: Goal::WinLossDraw, ..options });
            assert_eq!(sign.unwrap().score, best.signum(), "{board}");
        }
    }
}

/// A position with 14 empties, from a fixed random game.
fn fourteen_empties() -> Board {
    random_positions(11, 1, 14, 14)[0]
}

#[test]
fn the_node_limit_stops_the_search_with_an_error() {
    let board = fourteen_empties();
    let limited = SolveOptions { node_limit: Some(100), ..SolveOptions::default() };
    assert_eq!(solve_with(&board, &limited), Err(SolveError::NodeLimit(100)));
}

#[test]
fn a_node_limit_equal_to_the_nodes_needed_is_enough() {
    let board = fourteen_empties();
    let full = solve(&board);
    let exact = SolveOptions { node_limit: Some(full.nodes), ..SolveOptions::default() };
    assert_eq!(solve_with(&board, &exact), Ok(full));
    let short = SolveOptions { node_limit: Some(full.nodes - 1), ..SolveOptions::default() };
    assert_eq!(solve_with(&board, &short), Err(SolveError::NodeLimit(full.nodes - 1)));
}

#[test]
fn a_cancel_flag_set_beforehand_cancels_the_search() {
    let cancel = AtomicBool::new(true);
    let options = SolveOptions { cancel: Some(&cancel), ..SolveOptions::default() };
    assert_eq!(solve_with(&fourteen_empties(), &options), Err(SolveError::Cancelled));
}

#[test]
fn an_unset_cancel_flag_changes_nothing() {
    let board = fourteen_empties();
    let cancel = AtomicBool::new(false);
    let options = SolveOptions { cancel: Some(&cancel), ..SolveOptions::default() };
    assert_eq!(solve_with(&board, &options), Ok(solve(&board)));
}

#[test]
fn solving_twice_gives_the_same_score_move_and_node_count() {
    for board in random_positions(5, 3, 16, 16) {
        assert_eq!(solve(&board), solve(&board), "{board}");
    }
}

/// The published positions of FFO #40-#59 with their best move and its score, or `None`
/// (after saying so) when the file is absent.
fn published_positions() -> Option<Vec<(Board, Move, i32)>> {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../shared/data/fforum-40-59.obf");
    let Ok(text) = std::fs::read_to_string(path) else {
        println!("note: {path} is absent; skipping the published positions");
        return None;
    };
    let parse = |line: &str| {
        let board: Board = line.parse().expect("a position");
        let (_, moves) = line.split_once(';').expect("moves after the position");
        let (mv, score) =
            moves.split(';').next().and_then(|m| m.trim().split_once(':')).expect("MOVE:score");
        let mv = Move::Place(mv.to_ascii_lowercase().parse().expect("a square"));
        (board, mv, score.parse().expect("a score"))
    };
    Some(text.lines().map(parse).collect())
}

/// FFO #40 (the first line of the file, 20 empties) is the quickest of #40-#49 to solve; its
/// best move is the only one reaching the listed score.
#[test]
fn published_position_ffo_40_scores_as_listed() {
    let Some(positions) = published_positions() else { return };
    let (board, best, score) = positions[0];
    let options = options(Scoring::EmptiesToWinner, Goal::Exact);
    let solution = solve_with(&board, &options).expect("no limits");
    assert_eq!((solution.score, solution.best), (score, Some(best)));
}

/// FFO #41 and #42 (22 empties each, unique best moves) are solved after a selective
/// presearch, on one thread and on two; its likely bounds must not change the exact scores
/// and moves.
#[test]
fn published_positions_solved_after_a_presearch_score_as_listed() {
    let Some(positions) = published_positions() else { return };
    for &(board, best, score) in &positions[1..3] {
        assert_eq!(board.empty().count(), 22, "{board}");
        for threads in [1, 2] {
            let options =
                SolveOptions { threads, ..options(Scoring::EmptiesToWinner, Goal::Exact) };
            let solution = solve_with(&board, &options).expect("no limits");
            assert_eq!((solution.score, solution.best), (score, Some(best)), "{board}, {threads}");
        }
    }
}

/// Several threads give the score one thread gives, and a move that reaches it.
#[test]
fn two_threads_give_the_same_scores_as_one() {
    for board in random_positions(31, 3, 15, 18).into_iter().step_by(2) {
        for goal in [Goal::Exact, Goal::WinLossDraw] {
            let one = solve_with(&board, &options(Scoring::Discs, goal)).unwrap();
            let two = SolveOptions { threads: 2, ..options(Scoring::Discs, goal) };
            let two = solve_with(&board, &two).unwrap();
            assert_eq!(two.score, one.score, "{board} {goal:?}");
            if goal == Goal::Exact {
                let after = play(&board, two.best.unwrap());
                assert_eq!(-solve(&after).score, one.score, "{board}: {:?}", two.best);
            }
        }
    }
}

#[test]
fn a_cancel_flag_stops_every_thread_of_a_parallel_solve() {
    let cancel = AtomicBool::new(true);
    let options = SolveOptions { cancel: Some(&cancel), threads: 2, ..SolveOptions::default() };
    let board = random_positions(41, 1, 20, 20)[0];
    assert_eq!(solve_with(&board, &options), Err(SolveError::Cancelled));
}
