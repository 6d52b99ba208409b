; comP additions to tree-sitter-c-sharp's tags.scm: namespaces (also dotted
; and file-scoped ones), structs, records, enums and their members, delegates,
; constructors, local functions, properties, events, fields and constants.

; A file-scoped `namespace A.B;` holds no declarations in the tree: the types
; after it take its name as their scope's qualifier. These come first so that
; they win over the general patterns below.
(compilation_unit
  (file_scoped_namespace_declaration
    name: (_) @scope)
  [
    (class_declaration name: (identifier) @name) @definition.class
    (interface_declaration name: (identifier) @name) @definition.interface
    (struct_declaration name: (identifier) @name) @definition.struct
    (enum_declaration name: (identifier) @name) @definition.enum
    (delegate_declaration name: (identifier) @name) @definition.type
  ])

((compilation_unit
  (file_scoped_namespace_declaration
    name: (_) @scope)
  (record_declaration
    name: (identifier) @name) @definition.struct)
  (#match? @definition.struct "^[^{(]*\\brecord\\s+struct\\b"))

((compilation_unit
  (file_scoped_namespace_declaration
    name: (_) @scope)
  (record_declaration
    name: (identifier) @name) @definition.class)
  (#not-match? @definition.class "^[^{(]*\\brecord\\s+struct\\b"))

(namespace_declaration
  name: [(identifier) (qualified_name)] @name) @definition.namespace

(file_scoped_namespace_declaration
  name: [(identifier) (qualified_name)] @name) @definition.namespace

(struct_declaration
  name: (identifier) @name) @definition.struct

((record_declaration
  name: (identifier) @name) @definition.struct
  (#match? @definition.struct "^[^{(]*\\brecord\\s+struct\\b"))

((record_declaration
  name: (identifier) @name) @definition.class
  (#not-match? @definition.class "^[^{(]*\\brecord\\s+struct\\b"))

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

; `const` and `static readonly` fields are constants, other fields are fields.
; The definition is the whole declaration so that its modifiers decide
; is_exported; `int a, b;` yields two siblings.
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

((field_declaration
  (variable_declaration
    (variable_declarator
      name: (identifier) @name))) @definition.field
  (#not-match? @definition.field "^[^=]*\\bconst\\b")
  (#not-match? @definition.field "^(?=[^=]*\\bstatic\\b)(?=[^=]*\\breadonly\\b)"))
