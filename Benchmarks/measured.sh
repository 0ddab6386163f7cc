# Sourced by render.sh and history.sh: one measured run, and stopping it on Ctrl-C.
# Needs TIMEOUT (seconds) and SCRATCH (where partial timings are) set by the script.
#
# The measured command runs in a session of its own (setsid) so that an interrupted
# benchmark can stop it, and whatever it started, by its process group id.
CHILD=""
run_measured() {   # run_measured TIMEFILE STDOUT STDERR command...
    local tf="$1" so="$2" se="$3" rc=0; shift 3
    setsid /usr/bin/time -v -o "$tf" timeout --foreground "$TIMEOUT" "$@" > "$so" 2> "$se" &
    CHILD=$!
    wait "$CHILD" || rc=$?
    CHILD=""
    return "$rc"
}
on_signal() {
    [ -z "$CHILD" ] || kill -TERM -- "-$CHILD" 2>/dev/null || true
    echo "$(basename "$0"): interrupted; partial timings in $SCRATCH" >&2
    exit 130
}
trap on_signal INT TERM
