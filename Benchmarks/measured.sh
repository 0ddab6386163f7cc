# Sourced by render.sh and history.sh: one measured run, stopping it on Ctrl-C, and
# waiting out recently freed inodes. Needs TIMEOUT (seconds), SCRATCH (where partial
# timings are) and WORK (where `.last-delete` is) set by the script.
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

# Waits until the last deletion of outputs (`.last-delete`, written by the scripts) is 35 s
# old: ext4 without a journal scans past inodes freed in the last ~30 s when it allocates
# new ones (see the comment in render.sh), which would be charged to whichever build runs
# next.
settle() {
    [ -f "$WORK/.last-delete" ] || return 0
    local wait_s=$(( $(cat "$WORK/.last-delete") + 35 - $(date +%s) ))
    if [ "$wait_s" -gt 0 ]; then
        echo "== waiting $wait_s s for recently freed inodes to age (ext4 skips them for ~30 s)"
        sync
        sleep "$wait_s"
    fi
}
