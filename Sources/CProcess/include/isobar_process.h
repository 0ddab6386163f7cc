#ifndef ISOBAR_PROCESS_H
#define ISOBAR_PROCESS_H
#include <sys/types.h>

// Starts `path` with `argv` (NULL-terminated) as a helper of this process: its stdin and
// stdout are the two pipes' other ends (returned in *to_child and *from_child, close-on-
// exec here), its stderr /dev/null, no other descriptor of ours (not the output lock, not
// a connection), no signal blocked, SIGPIPE, SIGINT and SIGTERM at their defaults, in a
// process group of its own. Returns its pid, or -1 with errno set.
// In C: glibc's posix_spawn_file_actions_addclosefrom_np and pipe2 need _GNU_SOURCE.
pid_t isobar_spawn_helper(const char *path, char *const argv[], int *to_child, int *from_child);

// Called by a helper: it ends within a fraction of a second of the process that started
// it, however that one ends (so a helper stuck in a card never outlives the build).
// Returns 0, or -1 when that parent is already gone.
int isobar_die_with_parent(pid_t parent);

#endif
