#define _GNU_SOURCE
#include "isobar_process.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <pthread.h>
#include <unistd.h>

extern char **environ;

pid_t isobar_spawn_helper(const char *path, char *const argv[], int *to_child, int *from_child) {
    int in[2], out[2];
    if (pipe2(in, O_CLOEXEC) != 0) return -1;
    if (pipe2(out, O_CLOEXEC) != 0) {
        close(in[0]);
        close(in[1]);
        return -1;
    }
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_adddup2(&actions, in[0], 0);
    posix_spawn_file_actions_adddup2(&actions, out[1], 1);
    posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0);
    posix_spawn_file_actions_addclosefrom_np(&actions, 3);
    posix_spawnattr_t attributes;
    posix_spawnattr_init(&attributes);
    sigset_t none, defaults;
    sigemptyset(&none);
    sigemptyset(&defaults);
    sigaddset(&defaults, SIGPIPE);
    sigaddset(&defaults, SIGINT);
    sigaddset(&defaults, SIGTERM);
    posix_spawnattr_setsigmask(&attributes, &none);
    posix_spawnattr_setsigdefault(&attributes, &defaults);
    posix_spawnattr_setpgroup(&attributes, 0);
    posix_spawnattr_setflags(&attributes, POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETPGROUP);
    pid_t pid;
    int failed = posix_spawn(&pid, path, &actions, &attributes, argv, environ);
    posix_spawn_file_actions_destroy(&actions);
    posix_spawnattr_destroy(&attributes);
    close(in[0]);
    close(out[1]);
    if (failed != 0) {
        close(in[1]);
        close(out[0]);
        errno = failed;
        return -1;
    }
    *to_child = in[1];
    *from_child = out[0];
    return pid;
}

// Not prctl's PR_SET_PDEATHSIG: it fires when the thread that spawned the helper ends,
// and a build's threads come and go. A thread of the helper's own looks instead.
static pid_t watched_parent;

static void *watch_parent(void *unused) {
    (void)unused;
    for (;;) {
        if (getppid() != watched_parent) _exit(1);
        usleep(200000);
    }
    return NULL;
}

int isobar_die_with_parent(pid_t parent) {
    if (getppid() != parent) return -1;
    watched_parent = parent;
    pthread_t thread;
    if (pthread_create(&thread, NULL, watch_parent, NULL) != 0) return -1;
    pthread_detach(thread);
    return 0;
}
