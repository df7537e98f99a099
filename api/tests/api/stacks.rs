//! Every thread's stack in the test process, grouped, for a failure that would otherwise say
//! only that a server took too long to start or stop.

/// Every thread's stack in this process, as `gdb` prints it, each distinct stack once with the
/// threads that share it; or why there are none. A hang too rare to reproduce at will is then
/// diagnosed from the failing run's log alone.
pub fn thread_stacks() -> String {
    let pid = std::process::id().to_string();
    let gdb = std::process::Command::new("gdb")
        .args(["-p", &pid, "-batch", "-ex", "thread apply all bt 16"])
        .output();
    match gdb {
        Ok(output) if output.status.success() => {
            distinct_stacks(&String::from_utf8_lossy(&output.stdout))
        }
        Ok(output) => format!("(no thread stacks: gdb exited with {})", output.status),
        Err(error) => format!("(no thread stacks: gdb could not run: {error})"),
    }
}

/// `gdb`'s `thread apply all bt` grouped by stack: frames without addresses or symbol hashes,
/// so that threads waiting in the same place read as one stack, most common first.
fn distinct_stacks(gdb: &str) -> String {
    let mut stacks: Vec<(String, Vec<String>)> = Vec::new();
    for block in gdb.split("\n\n") {
        let mut lines = block.lines().skip_while(|line| !line.starts_with("Thread "));
        let Some(header) = lines.next() else { continue };
        let name = header.rsplit('"').nth(1).unwrap_or("?").to_owned();
        let frames: Vec<String> = lines.filter(|line| line.starts_with('#')).map(frame).collect();
        let stack = frames.join("\n");
        match stacks.iter_mut().find(|(known, _)| *known == stack) {
            Some((_, names)) => names.push(name),
            None => stacks.push((stack, vec![name])),
        }
    }
    stacks.sort_by_key(|(_, names)| std::cmp::Reverse(names.len()));
    let mut text = format!("{} distinct thread stacks:\n", stacks.len());
    for (stack, names) in stacks {
        text.push_str(&format!("\n{} thread(s): {}\n{stack}\n", names.len(), names.join(", ")));
    }
    text
}

/// One frame of a backtrace as `function at file:line`, without its number, address or hash.
fn frame(line: &str) -> String {
    let line = line.split_once(' ').map_or(line, |(_, rest)| rest).trim_start();
    let line = match line.split_once(" in ") {
        Some((address, rest)) if address.starts_with("0x") => rest,
        _ => line,
    };
    let (function, place) = line.split_once(" (").unwrap_or((line, ""));
    let function = match function.rsplit_once("::h") {
        Some((path, hash)) if hash.len() == 16 && hash.bytes().all(|b| b.is_ascii_hexdigit()) => {
            path
        }
        _ => function,
    };
    match place.rsplit_once(" at ") {
        Some((_, at)) => format!("  {function} at {at}"),
        None => format!("  {function}"),
    }
}

#[test]
fn threads_waiting_in_the_same_place_read_as_one_stack() {
    let gdb = "[New LWP 2]\n\nThread 3 (Thread 0x7f01 (LWP 3) \"worker\"):\n\
        #0  0x00007f in epoll_wait (epfd=4) at epoll.c:30\n\
        #1  0x000055 in mio::poll::Poll::poll::h0123456789abcdef () at src/poll.rs:435\n\n\
        Thread 2 (Thread 0x7f02 (LWP 2) \"accept\"):\n\
        #0  0x00007e in epoll_wait (epfd=9) at epoll.c:30\n\
        #1  0x000056 in mio::poll::Poll::poll::hfedcba9876543210 () at src/poll.rs:435\n\n\
        Thread 1 (Thread 0x7f03 (LWP 1) \"main\"):\n\
        #0  futex_wait () at futex.rs:73\n";
    assert_eq!(
        distinct_stacks(gdb),
        "2 distinct thread stacks:\n\
         \n2 thread(s): worker, accept\n  epoll_wait at epoll.c:30\n  mio::poll::Poll::poll at src/poll.rs:435\n\
         \n1 thread(s): main\n  futex_wait at futex.rs:73\n"
    );
}
