; comP additions to tree-sitter-swift's tags.scm. Upstream's member patterns
; take the whole class or protocol as the definition of each method and
; property, call every type a class, and tag a function's locals: these
; patterns re-capture the same names with their own definitions and kinds.
; Earlier patterns win over later ones.

; Locals of a function body and subscript parameters are no definitions.
(statements
  (property_declaration
    name: (pattern (simple_identifier) @ignore)))

(subscript_declaration
  (parameter (simple_identifier) @ignore))

; Types by their declaration keyword; an extension is named by the type it
; extends (kind impl, as a Rust impl block), so its members read Type.member
; (`extension Outer.Inner` reads Outer.Inner.member).
(class_declaration
  declaration_kind: "struct"
  name: (type_identifier) @name) @definition.struct

(class_declaration
  declaration_kind: "enum"
  name: (type_identifier) @name) @definition.enum

(class_declaration
  declaration_kind: ["class" "actor"]
  name: (type_identifier) @name) @definition.class

(class_declaration
  declaration_kind: "extension"
  name: (user_type . (type_identifier) @scope . (type_identifier) @name .)) @definition.impl

(class_declaration
  declaration_kind: "extension"
  name: (user_type (type_identifier) @name .)) @definition.impl

(protocol_declaration
  name: (type_identifier) @name) @definition.interface

(typealias_declaration
  name: (type_identifier) @name) @definition.type

(enum_entry
  name: (simple_identifier) @name) @definition.constant

; Functions are methods by being inside a type, protocol or extension.
(function_declaration
  name: (simple_identifier) @name) @definition.function

(protocol_function_declaration
  name: (simple_identifier) @name) @definition.function

(init_declaration
  "init" @name) @definition.constructor

(deinit_declaration
  "deinit" @name) @definition.method

(subscript_declaration
  "subscript" @name) @definition.method

; Properties of types and protocols; at file level `let` is a constant and
; `var` a variable.
((source_file
  (property_declaration
    (value_binding_pattern) @_binding
    name: (pattern (simple_identifier) @name)) @definition.constant)
  (#eq? @_binding "let"))

(source_file
  (property_declaration
    name: (pattern (simple_identifier) @name)) @definition.variable)

(property_declaration
  name: (pattern (simple_identifier) @name)) @definition.property

(protocol_property_declaration
  name: (pattern (simple_identifier) @name)) @definition.property
