#!/usr/bin/env bash
# Runs every fuzz target for a bounded time and fails if any of them crashes.
#
#   fuzz/run.sh [seconds-per-target]     (default 60)
#
# Uses cargo-fuzz on the stable toolchain with no sanitizer (see README.md); installs
# cargo-fuzz first if it is missing. A crash leaves its input in fuzz/artifacts/<target>/.
set -euo pipefail

seconds="${1:-60}"
if ! [[ "$seconds" =~ ^[0-9]+$ ]] || [ "$seconds" -lt 1 ]; then
    echo "usage: $0 [seconds-per-target]" >&2
    exit 2
fi

cd "$(dirname "${BASH_SOURCE[0]}")"

CARGO_FUZZ_VERSION="0.13.2"
if ! cargo fuzz --version >/dev/null 2>&1; then
    echo "fuzz: installing cargo-fuzz $CARGO_FUZZ_VERSION"
    cargo install --locked cargo-fuzz --version "$CARGO_FUZZ_VERSION"
fi

targets=(record position ws_message)
# Stable Rust has no AddressSanitizer: instrument for coverage only. The parsers are safe
# Rust, so what is looked for is panics (including overflow and debug assertions), endless
# loops and runaway memory, all of which libFuzzer reports without a sanitizer.
build_flags=(--sanitizer none)

# The fuzz workspace has its own lock file. It must already hold what the engine and the api
# need, so that a run never rewrites it: after changing their dependencies, run
# `cargo update --manifest-path fuzz/Cargo.toml --workspace` and commit fuzz/Cargo.lock.
if ! cargo metadata --locked --format-version 1 >/dev/null; then
    echo "fuzz: fuzz/Cargo.lock is out of date; run: cargo update --manifest-path fuzz/Cargo.toml --workspace" >&2
    exit 1
fi

echo "fuzz: building ${targets[*]}"
start=$(date +%s)
cargo fuzz build "${build_flags[@]}"
echo "fuzz: built in $(( $(date +%s) - start ))s"

# Frames over the WebSocket limit (4 KiB) must be reachable, so that target reads longer inputs.
max_len() {
    case "$1" in
        ws_message) echo 8192 ;;
        *) echo 4096 ;;
    esac
}

passed=0
failed=0
failures=()
for target in "${targets[@]}"; do
    mkdir -p "corpus/$target" "artifacts/$target"
    echo "fuzz: $target for ${seconds}s"
    if cargo fuzz run "${build_flags[@]}" "$target" "corpus/$target" -- \
        -max_total_time="$seconds" \
        -max_len="$(max_len "$target")" \
        -timeout=10 \
        -rss_limit_mb=2048 \
        -print_final_stats=1 \
        >"artifacts/$target/last-run.log" 2>&1; then
        grep -E '^(stat::number_of_executed_units|Done )' "artifacts/$target/last-run.log" || true
        echo "fuzz: $target ok"
        passed=$((passed + 1))
    else
        tail -n 60 "artifacts/$target/last-run.log"
        echo "fuzz: $target FAILED (log: fuzz/artifacts/$target/last-run.log)"
        failed=$((failed + 1))
        failures+=("$target")
    fi
done

echo "fuzz: $passed passed, $failed failed"
if [ "$failed" -gt 0 ]; then
    echo "fuzz: failing targets: ${failures[*]}" >&2
    exit 1
fi
