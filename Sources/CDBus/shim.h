#ifndef MEDIABROKER_CDBUS_SHIM_H
#define MEDIABROKER_CDBUS_SHIM_H
#include <dbus/dbus.h>

/* Type codes are macros of character literals, which Swift imports unreliably; expose them as
   constants so no Swift file ever re-types a libdbus value by hand. */
static const int cdbus_type_invalid = DBUS_TYPE_INVALID;
static const int cdbus_type_byte = DBUS_TYPE_BYTE;
static const int cdbus_type_boolean = DBUS_TYPE_BOOLEAN;
static const int cdbus_type_int16 = DBUS_TYPE_INT16;
static const int cdbus_type_uint16 = DBUS_TYPE_UINT16;
static const int cdbus_type_int32 = DBUS_TYPE_INT32;
static const int cdbus_type_uint32 = DBUS_TYPE_UINT32;
static const int cdbus_type_int64 = DBUS_TYPE_INT64;
static const int cdbus_type_uint64 = DBUS_TYPE_UINT64;
static const int cdbus_type_double = DBUS_TYPE_DOUBLE;
static const int cdbus_type_string = DBUS_TYPE_STRING;
static const int cdbus_type_object_path = DBUS_TYPE_OBJECT_PATH;
static const int cdbus_type_signature = DBUS_TYPE_SIGNATURE;
static const int cdbus_type_unix_fd = DBUS_TYPE_UNIX_FD;
static const int cdbus_type_array = DBUS_TYPE_ARRAY;
static const int cdbus_type_variant = DBUS_TYPE_VARIANT;
static const int cdbus_type_struct = DBUS_TYPE_STRUCT;
static const int cdbus_type_dict_entry = DBUS_TYPE_DICT_ENTRY;

static const int cdbus_message_type_method_call = DBUS_MESSAGE_TYPE_METHOD_CALL;
static const int cdbus_message_type_method_return = DBUS_MESSAGE_TYPE_METHOD_RETURN;
static const int cdbus_message_type_error = DBUS_MESSAGE_TYPE_ERROR;
static const int cdbus_message_type_signal = DBUS_MESSAGE_TYPE_SIGNAL;

static const unsigned int cdbus_name_flag_do_not_queue = DBUS_NAME_FLAG_DO_NOT_QUEUE;
static const int cdbus_request_name_reply_primary_owner = DBUS_REQUEST_NAME_REPLY_PRIMARY_OWNER;
static const int cdbus_request_name_reply_already_owner = DBUS_REQUEST_NAME_REPLY_ALREADY_OWNER;

/* What SwiftDBus's own writer puts into a message header (WireMessage.swift). */
static const unsigned char cdbus_little_endian = DBUS_LITTLE_ENDIAN;
static const unsigned char cdbus_major_protocol_version = DBUS_MAJOR_PROTOCOL_VERSION;
static const unsigned char cdbus_header_flag_no_reply_expected = DBUS_HEADER_FLAG_NO_REPLY_EXPECTED;
static const unsigned char cdbus_header_flag_no_auto_start = DBUS_HEADER_FLAG_NO_AUTO_START;
static const unsigned char cdbus_header_field_path = DBUS_HEADER_FIELD_PATH;
static const unsigned char cdbus_header_field_interface = DBUS_HEADER_FIELD_INTERFACE;
static const unsigned char cdbus_header_field_member = DBUS_HEADER_FIELD_MEMBER;
static const unsigned char cdbus_header_field_error_name = DBUS_HEADER_FIELD_ERROR_NAME;
static const unsigned char cdbus_header_field_reply_serial = DBUS_HEADER_FIELD_REPLY_SERIAL;
static const unsigned char cdbus_header_field_destination = DBUS_HEADER_FIELD_DESTINATION;
static const unsigned char cdbus_header_field_signature = DBUS_HEADER_FIELD_SIGNATURE;

static const int cdbus_maximum_message_length = DBUS_MAXIMUM_MESSAGE_LENGTH;
static const int cdbus_maximum_type_recursion_depth = DBUS_MAXIMUM_TYPE_RECURSION_DEPTH;

/* The bytes an array's elements take in the body, read from its length field without walking them
   (BodyLength.swift); ITERATOR is one recursed into the array. libdbus marks the call deprecated
   as of no use to anyone; measuring a body before reading it is the use. */
static inline int cdbus_message_iter_array_bytes(DBusMessageIter *iterator) {
#pragma clang diagnostic push
#pragma clang diagnostic ignored "-Wdeprecated-declarations"
    return dbus_message_iter_get_array_len(iterator);
#pragma clang diagnostic pop
}

#endif
