/// Generates `org.freedesktop.DBus.Introspectable` XML from exported declarations, so what a
/// caller sees can never drift from what the object answers.
enum Introspection {
    static let header = """
        <!DOCTYPE node PUBLIC "-//freedesktop//DTD D-BUS Object Introspection 1.0//EN"
         "http://www.freedesktop.org/standards/dbus/1.0/introspect.dtd">

        """

    static func xml(for path: ObjectPath, in objects: [ObjectPath: ExportedObject]) -> String {
        var out = header + "<node>\n"
        if let object = objects[path] {
            for interface in standardInterfaces + object.interfaces { append(interface, to: &out) }
        }
        for child in children(of: path, in: objects.keys) {
            out += "  <node name=\"\(escape(child))\"/>\n"
        }
        return out + "</node>\n"
    }

    static func document(_ interfaces: [ExportedInterface]) -> String {
        var out = header + "<node>\n"
        for interface in interfaces { append(interface, to: &out) }
        return out + "</node>\n"
    }

    /// The next path element of every exported path below `path`, so `gdbus introspect` can walk
    /// down from `/` to the objects.
    static func children(of path: ObjectPath, in paths: Dictionary<ObjectPath, ExportedObject>.Keys) -> [String] {
        let parent = path.components
        var names = Set<String>()
        for candidate in paths {
            let components = candidate.components
            guard components.count > parent.count, Array(components.prefix(parent.count)) == parent else { continue }
            names.insert(String(components[parent.count]))
        }
        return names.sorted()
    }

    private static func append(_ interface: ExportedInterface, to out: inout String) {
        out += "  <interface name=\"\(interface.name)\">\n"
        append(interface.annotations, indent: 4, to: &out)
        for method in interface.methods {
            out += "    <method name=\"\(method.name)\">\n"
            append(method.annotations, indent: 6, to: &out)
            for argument in method.inputs { append(argument, direction: "in", to: &out) }
            for argument in method.outputs { append(argument, direction: "out", to: &out) }
            out += "    </method>\n"
        }
        for signal in interface.signals {
            out += "    <signal name=\"\(signal.name)\">\n"
            append(signal.annotations, indent: 6, to: &out)
            for argument in signal.arguments { append(argument, direction: nil, to: &out) }
            out += "    </signal>\n"
        }
        for property in interface.properties {
            out += "    <property name=\"\(property.name)\" type=\"\(escape(property.signature.rawValue))\" access=\"\(property.access.rawValue)\""
            var annotations = property.annotations
            if property.changeSignal != .emits {
                annotations.insert(Annotation("org.freedesktop.DBus.Property.EmitsChangedSignal", property.changeSignal.rawValue), at: 0)
            }
            if annotations.isEmpty {
                out += "/>\n"
            } else {
                out += ">\n"
                append(annotations, indent: 6, to: &out)
                out += "    </property>\n"
            }
        }
        out += "  </interface>\n"
    }

    private static func append(_ argument: Argument, direction: String?, to out: inout String) {
        out += "      <arg name=\"\(escape(argument.name))\" type=\"\(escape(argument.signature.rawValue))\""
        if let direction { out += " direction=\"\(direction)\"" }
        guard !argument.annotations.isEmpty else { return out += "/>\n" }
        out += ">\n"
        append(argument.annotations, indent: 8, to: &out)
        out += "      </arg>\n"
    }

    private static func append(_ annotations: [Annotation], indent: Int, to out: inout String) {
        let spaces = String(repeating: " ", count: indent)
        for annotation in annotations {
            out += "\(spaces)<annotation name=\"\(escape(annotation.name))\" value=\"\(escape(annotation.value))\"/>\n"
        }
    }

    private static func escape(_ text: String) -> String {
        var out = ""
        for character in text {
            switch character {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            // A parser turns a raw line break in an attribute into a space; a reference keeps it.
            case "\n": out += "&#10;"
            default: out.append(character)
            }
        }
        return out
    }

    /// The interfaces every exported object answers, declared for introspection only (the
    /// object table answers them itself).
    static let standardInterfaces: [ExportedInterface] = {
        let none: @Sendable (MethodInvocation) -> Void = { _ in }
        return [
            ExportedInterface(name: .introspectable, methods: [
                ExportedMethod("Introspect", outputs: [Argument("xml_data", .string)], handler: none),
            ]),
            ExportedInterface(name: .peer, methods: [
                ExportedMethod("Ping", handler: none),
                ExportedMethod("GetMachineId", outputs: [Argument("machine_uuid", .string)], handler: none),
            ]),
            ExportedInterface(name: .properties, methods: [
                ExportedMethod("Get", inputs: [Argument("interface_name", .string), Argument("property_name", .string)],
                               outputs: [Argument("value", .variant)], handler: none),
                ExportedMethod("GetAll", inputs: [Argument("interface_name", .string)],
                               outputs: [Argument("props", .vardict)], handler: none),
                ExportedMethod("Set", inputs: [Argument("interface_name", .string), Argument("property_name", .string),
                                               Argument("value", .variant)], handler: none),
            ], signals: [
                ExportedSignal("PropertiesChanged", arguments: [
                    Argument("interface_name", .string), Argument("changed_properties", .vardict),
                    Argument("invalidated_properties", "as"),
                ]),
            ]),
        ]
    }()
}
