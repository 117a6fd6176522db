/* window: how long until a window is on the screen, and how much memory its program holds.
 *
 *   window pick  --runs N            calls PickMedia on the session bus's broker and times the call
 *                                    to the picker's window being mapped (X MapNotify)
 *   window floor --runs N -- CMD…    times exec of CMD (the least GTK 4 window, bench/src/gtkwindow.c)
 *                                    to its window being mapped
 *
 * For each run it prints one JSON line: mapped_ms, and rss_kb / hwm_kb of the window's process
 * (found by the _NET_WM_PID GTK sets on it) once it has been quiet for 300 ms; then it ends that
 * process (Close() on the request, or SIGTERM) and waits for it to exit. There is no window
 * manager on the bench's display: a toplevel is mapped as a child of the root window. */
#include "common.h"
#include <X11/Xatom.h>
#include <X11/Xlib.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

static long status_kb(int pid, const char *field) {
    char path[64], line[256];
    snprintf(path, sizeof path, "/proc/%d/status", pid);
    FILE *f = fopen(path, "r");
    if (!f) return -1;
    long kb = -1;
    size_t n = strlen(field);
    while (fgets(line, sizeof line, f))
        if (!strncmp(line, field, n)) { kb = atol(line + n + 1); break; }
    fclose(f);
    return kb;
}

/* Waits for the next toplevel to be mapped; its window, or 0 after `limit_ms`. */
static Window wait_mapped(Display *x, int limit_ms) {
    int64_t end = now_ns() + (int64_t)limit_ms * 1000000;
    for (;;) {
        while (XPending(x)) {
            XEvent event;
            XNextEvent(x, &event);
            if (event.type == MapNotify && !event.xmap.override_redirect) return event.xmap.window;
        }
        int64_t left = end - now_ns();
        if (left <= 0) return 0;
        struct pollfd fd = {ConnectionNumber(x), POLLIN, 0};
        poll(&fd, 1, (int)(left / 1000000) + 1);
    }
}

static int window_pid(Display *x, Window window) {
    Atom type;
    int format;
    unsigned long count, after;
    unsigned char *data = NULL;
    Atom pid_atom = XInternAtom(x, "_NET_WM_PID", False);
    int pid = 0;
    if (XGetWindowProperty(x, window, pid_atom, 0, 1, False, XA_CARDINAL, &type, &format, &count, &after, &data) == Success
        && data && count == 1)
        pid = (int)*(unsigned long *)data;
    if (data) XFree(data);
    return pid;
}

static void wait_exit(int pid, int limit_ms) {
    char path[64];
    snprintf(path, sizeof path, "/proc/%d", pid);
    for (int waited = 0; waited < limit_ms && !access(path, F_OK); waited += 10) {
        struct timespec nap = {0, 10 * 1000000};
        nanosleep(&nap, NULL);
        waitpid(pid, NULL, WNOHANG);
    }
}

static const char *pick(DBusConnection *bus, int run, char *path, size_t size) {
    char token[32];
    snprintf(token, sizeof token, "bench%d", run);
    DBusMessage *call = dbus_message_new_method_call("org.mediabroker.MediaBroker1", "/org/mediabroker/MediaBroker1",
                                                     "org.mediabroker.MediaBroker1", "PickMedia");
    DBusMessageIter args, options;
    const char *parent = "";
    dbus_message_iter_init_append(call, &args);
    dbus_message_iter_append_basic(&args, DBUS_TYPE_STRING, &parent);
    dbus_message_iter_open_container(&args, DBUS_TYPE_ARRAY, "{sv}", &options);
    const char *value = token;
    dict_entry(&options, "handle_token", DBUS_TYPE_STRING, &value);
    dbus_message_iter_close_container(&args, &options);
    DBusError error;
    dbus_error_init(&error);
    DBusMessage *reply = dbus_connection_send_with_reply_and_block(bus, call, 10000, &error);
    die_on(&error, "PickMedia");
    const char *handle = NULL;
    dbus_message_get_args(reply, &error, DBUS_TYPE_OBJECT_PATH, &handle, DBUS_TYPE_INVALID);
    die_on(&error, "PickMedia's reply");
    snprintf(path, size, "%s", handle);
    dbus_message_unref(reply);
    dbus_message_unref(call);
    return path;
}

static void close_request(DBusConnection *bus, const char *path) {
    DBusMessage *call = dbus_message_new_method_call("org.mediabroker.MediaBroker1", path, "org.freedesktop.portal.Request", "Close");
    DBusError error;
    dbus_error_init(&error);
    DBusMessage *reply = dbus_connection_send_with_reply_and_block(bus, call, 10000, &error);
    die_on(&error, "Close");
    dbus_message_unref(reply);
    dbus_message_unref(call);
}

int main(int argc, char **argv) {
    if (argc < 4 || strcmp(argv[2], "--runs")) {
        fprintf(stderr, "usage: window pick|floor --runs N [-- CMD…]\n");
        return 64;
    }
    int floor = !strcmp(argv[1], "floor"), runs = atoi(argv[3]);
    char **command = argc > 5 && !strcmp(argv[4], "--") ? argv + 5 : NULL;
    if (floor && !command) { fprintf(stderr, "window floor needs -- CMD\n"); return 64; }
    Display *x = XOpenDisplay(NULL);
    if (!x) { fprintf(stderr, "window: no X display\n"); return 1; }
    XSelectInput(x, DefaultRootWindow(x), SubstructureNotifyMask);
    XSync(x, False);
    DBusError error;
    dbus_error_init(&error);
    DBusConnection *bus = floor ? NULL : dbus_bus_get(DBUS_BUS_SESSION, &error);
    die_on(&error, "session bus");
    for (int run = 0; run < runs; run++) {
        char path[256];
        pid_t child = 0;
        int64_t start = now_ns();
        if (floor) {
            if (posix_spawnp(&child, command[0], NULL, NULL, command, environ)) { perror("posix_spawn"); return 1; }
        } else {
            pick(bus, run, path, sizeof path);
        }
        Window window = wait_mapped(x, 10000);
        int64_t mapped = now_ns();
        if (!window) { fprintf(stderr, "window: nothing was mapped within 10 s\n"); return 1; }
        int pid = window_pid(x, window);
        if (pid > 0) cpu_settled(pid, 300, 5000);
        printf("{\"mapped_ms\":%.2f,\"rss_kb\":%ld,\"hwm_kb\":%ld}\n", (mapped - start) / 1e6,
               pid > 0 ? status_kb(pid, "VmRSS:") : -1, pid > 0 ? status_kb(pid, "VmHWM:") : -1);
        fflush(stdout);
        if (floor) kill(child, SIGTERM); else close_request(bus, path);
        if (pid > 0) wait_exit(pid, 10000);
        if (floor) waitpid(child, NULL, 0);
        XSync(x, True);  /* the unmap and destroy of this run's window */
    }
    return 0;
}
