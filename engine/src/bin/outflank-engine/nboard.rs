//! `nboard`: speaks the NBoard protocol on stdin and stdout, so that NBoard (or another GUI
//! speaking it) can use Outflank as its engine. The protocol itself is
//! [`outflank_engine::nboard::Session`]; this is only the loop around it.
//!
//! Every answer is flushed at once, since the GUI waits for it through a pipe. The loop ends
//! on `quit` or at the end of the input. `--threads N` (by default one a core) shares a hint's
//! moves and an analysis's positions among threads; a move (`go`) is searched on one.

use std::io::{self, BufRead, Write};
use std::time::Instant;

use outflank_engine::nboard::Session;

use crate::CliError;

pub fn run(args: &[String], json: bool) -> Result<(), CliError> {
    if json {
        return Err(CliError("nboard speaks the NBoard protocol; --json does not apply".into()));
    }
    let threads = match args {
        [] => std::thread::available_parallelism().map_or(1, usize::from),
        [option, count] if option == "--threads" => crate::threads_option(count)?,
        [arg, ..] => {
            return Err(CliError(format!("nboard takes only --threads N, found {arg:?}")));
        }
    };
    let started = Instant::now();
    let mut session = Session::with_clock(move || started.elapsed()).with_threads(threads);
    let stdin = io::stdin();
    let mut stdout = io::stdout().lock();
    // Lines that are not UTF-8 are read lossily: the session ignores what it does not know.
    let mut line = Vec::new();
    let mut input = stdin.lock();
    loop {
        line.clear();
        if input.read_until(b'\n', &mut line)? == 0 {
            break;
        }
        for answer in session.handle(&String::from_utf8_lossy(&line)) {
            writeln!(stdout, "{answer}")?;
        }
        stdout.flush()?;
        if session.is_finished() {
            break;
        }
    }
    Ok(())
}
