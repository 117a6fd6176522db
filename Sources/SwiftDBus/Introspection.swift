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
        for method in interface.methods {
            out += "    <method name=\"\(method.name)\">\n"
            for argument in method.inputs { out += "      <arg name=\"\(escape(argument.name))\" type=\"\(escape(argument.signature.rawValue))\" direction=\"in\"/>\n" }
            for argument in method.outputs { out += "      <arg name=\"\(escape(argument.name))\" type=\"\(escape(argument.signature.rawValue))\" direction=\"out\"/>\n" }
            out += "    </method>\n"
        }
        for signal in interface.signals {
            out += "    <signal name=\"\(signal.name)\">\n"
            for argument in signal.arguments { out += "      <arg name=\"\(escape(argument.name))\" type=\"\(escape(argument.signature.rawValue))\"/>\n" }
            out += "    </signal>\n"
        }
        for property in interface.properties {
            out += "    <property name=\"\(property.name)\" type=\"\(escape(property.signature.rawValue))\" access=\"\(property.access.rawValue)\""
            if property.changeSignal == .emits {
                out += "/>\n"
            } else {
                out += ">\n      <annotation name=\"org.freedesktop.DBus.Property.EmitsChangedSignal\" value=\"\(property.changeSignal.rawValue)\"/>\n    </property>\n"
            }
        }
        out += "  </interface>\n"
    }

    private static func escape(_ text: String) -> String {
        var out = ""
        for character in text {
            switch character {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
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
