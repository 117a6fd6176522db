/* gtkwindow: the least a GTK 4 program with libadwaita shows — one window holding one label — the
 * floor of bench/run's picker row: what any GTK 4 window costs to put on the screen. */
#include <adwaita.h>

static void activate(GtkApplication *application, gpointer data) {
    (void)data;
    GtkWidget *window = adw_application_window_new(application);
    gtk_window_set_title(GTK_WINDOW(window), "floor");
    gtk_window_set_default_size(GTK_WINDOW(window), 960, 640);
    adw_application_window_set_content(ADW_APPLICATION_WINDOW(window), gtk_label_new("floor"));
    gtk_window_present(GTK_WINDOW(window));
}

int main(int argc, char **argv) {
    AdwApplication *application = adw_application_new("org.mediabroker.BenchFloor", G_APPLICATION_NON_UNIQUE);
    g_signal_connect(application, "activate", G_CALLBACK(activate), NULL);
    int status = g_application_run(G_APPLICATION(application), argc, argv);
    g_object_unref(application);
    return status;
}
