// The Swift D-Bus layer: the only code that imports CDBus.
internal import CDBus
