# Sourced by the benchmarks: the machine-readable mode that Benchmarks/run.sh reads.
#
#   BENCH_ROWS=1      besides its normal output, a bench prints one `ROW NAME VALUE UNIT` line
#                     per sample (one round of a comparison, one measured run); run.sh takes the
#                     median and the min-max of each NAME's samples.
#   BENCH_BIN_DIR=D   use the release executables already built in D (run.sh builds once)
#                     instead of building them.
#   BENCH_ROUNDS=N    samples per row in row mode, for the benches without a rounds argument.

row() {
    if [ -n "${BENCH_ROWS:-}" ]; then printf 'ROW %s %s %s\n' "$1" "$2" "$3"; fi
    return 0
}

# Nanoseconds since the epoch.
now_ns() { date +%s%N; }
