; comP additions to tree-sitter-java's tags.scm: constructors, records,
; enums and their constants, annotation types, fields and constants.

(constructor_declaration
  name: (identifier) @name) @definition.constructor

(compact_constructor_declaration
  name: (identifier) @name) @definition.constructor

(record_declaration
  name: (identifier) @name) @definition.class

(enum_declaration
  name: (identifier) @name) @definition.enum

(enum_constant
  name: (identifier) @name) @definition.constant

(annotation_type_declaration
  name: (identifier) @name) @definition.interface

(annotation_type_element_declaration
  name: (identifier) @name) @definition.method

; `static final` fields and interface fields are constants, other fields are
; fields (the first pattern wins). The definition is the whole declaration so
; that its modifiers decide is_exported; `int a, b;` yields two siblings.
((field_declaration
  (modifiers) @_modifiers
  declarator: (variable_declarator
    name: (identifier) @name)) @definition.constant
  (#match? @_modifiers "\\bstatic\\b")
  (#match? @_modifiers "\\bfinal\\b"))

(field_declaration
  declarator: (variable_declarator
    name: (identifier) @name)) @definition.field

(constant_declaration
  declarator: (variable_declarator
    name: (identifier) @name)) @definition.constant
