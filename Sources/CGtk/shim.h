#ifndef MEDIABROKER_CGTK_SHIM_H
#define MEDIABROKER_CGTK_SHIM_H
#include <gtk/gtk.h>
#include <adwaita.h>

/* Macros and variadic functions do not import into Swift: these few stand in for the ones
   SwiftGtk needs, each a plain call of the function the macro names. */

static inline gulong cgtk_signal_connect(gpointer instance, const char *signal, GCallback handler,
                                         gpointer data, GClosureNotify destroy) {
    return g_signal_connect_data(instance, signal, handler, data, destroy, (GConnectFlags)0);
}

/* gtk_accessible_update_property and _relation are variadic. */
static inline void cgtk_accessible_set_label(GtkWidget *widget, const char *label) {
    gtk_accessible_update_property(GTK_ACCESSIBLE(widget), GTK_ACCESSIBLE_PROPERTY_LABEL, label, -1);
}

static inline void cgtk_accessible_set_description(GtkWidget *widget, const char *description) {
    gtk_accessible_update_property(GTK_ACCESSIBLE(widget), GTK_ACCESSIBLE_PROPERTY_DESCRIPTION, description, -1);
}

static inline void cgtk_accessible_labelled_by(GtkWidget *widget, GtkWidget *label) {
    gtk_accessible_update_relation(GTK_ACCESSIBLE(widget), GTK_ACCESSIBLE_RELATION_LABELLED_BY, label, NULL, -1);
}

/* g_object_set is variadic: the one boolean property the picker sets by name. */
static inline void cgtk_object_set_boolean(gpointer object, const char *name, gboolean value) {
    g_object_set(object, name, value, NULL);
}

#endif
