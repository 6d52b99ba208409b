; comP's symbol query for Kotlin (tree-sitter-kotlin ships no tags.scm).
; Earlier patterns win over later ones.

(class_declaration
  "interface"
  name: (identifier) @name) @definition.interface

((class_declaration
  (modifiers (class_modifier) @_modifier)
  name: (identifier) @name) @definition.enum
  (#eq? @_modifier "enum"))

(class_declaration
  name: (identifier) @name) @definition.class

; `object` and named `companion object` declarations are singleton classes.
(object_declaration
  name: (identifier) @name) @definition.class

(companion_object
  name: (identifier) @name) @definition.class

(enum_entry
  (identifier) @name) @definition.constant

(type_alias
  type: (identifier) @name) @definition.type

; Functions are methods by being inside a class, interface or object.
(function_declaration
  name: (identifier) @name) @definition.function

(secondary_constructor
  "constructor" @name) @definition.constructor

; Properties of files and classes (never a function's locals), including the
; `val`/`var` parameters of a primary constructor; `const val` is a constant.
((source_file
  (property_declaration
    (modifiers (property_modifier) @_modifier)
    (variable_declaration (identifier) @name)) @definition.constant)
  (#eq? @_modifier "const"))

((class_body
  (property_declaration
    (modifiers (property_modifier) @_modifier)
    (variable_declaration (identifier) @name)) @definition.constant)
  (#eq? @_modifier "const"))

(source_file
  (property_declaration
    (variable_declaration (identifier) @name)) @definition.property)

(class_body
  (property_declaration
    (variable_declaration (identifier) @name)) @definition.property)

(class_parameter
  ["val" "var"]
  .
  (identifier) @name) @definition.property
