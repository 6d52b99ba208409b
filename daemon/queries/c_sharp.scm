; comP additions to tree-sitter-c-sharp's tags.scm: namespaces (also dotted
; and file-scoped ones), structs, records, enums and their members, delegates,
; constructors, local functions, properties, events, fields and constants.
; Earlier patterns win over later ones.

; symbols.cc puts the declarations after a file-scoped `namespace A.B;` in it.
(namespace_declaration
  name: [(identifier) (qualified_name)] @name) @definition.namespace

(file_scoped_namespace_declaration
  name: [(identifier) (qualified_name)] @name) @definition.namespace

(struct_declaration
  name: (identifier) @name) @definition.struct

; `record struct` is a struct, any other record a class.
((record_declaration
  name: (identifier) @name) @definition.struct
  (#match? @definition.struct "^[^{(]*\\brecord\\s+struct\\b"))

(record_declaration
  name: (identifier) @name) @definition.class

(enum_declaration
  name: (identifier) @name) @definition.enum

(enum_member_declaration
  name: (identifier) @name) @definition.constant

(delegate_declaration
  name: (identifier) @name) @definition.type

(constructor_declaration
  name: (identifier) @name) @definition.constructor

(local_function_statement
  name: (identifier) @name) @definition.function

(property_declaration
  name: (identifier) @name) @definition.property

(event_field_declaration
  (variable_declaration
    (variable_declarator
      name: (identifier) @name))) @definition.field

; `const` and `static readonly` fields are constants, other fields are fields
; (the first pattern wins). The definition is the whole declaration so that
; its modifiers decide is_exported; `int a, b;` yields two siblings.
((field_declaration
  (variable_declaration
    (variable_declarator
      name: (identifier) @name))) @definition.constant
  (#match? @definition.constant "^[^=]*\\bconst\\b"))

((field_declaration
  (variable_declaration
    (variable_declarator
      name: (identifier) @name))) @definition.constant
  (#match? @definition.constant "^(?=[^=]*\\bstatic\\b)(?=[^=]*\\breadonly\\b)"))

(field_declaration
  (variable_declaration
    (variable_declarator
      name: (identifier) @name))) @definition.field
