; comP additions to tree-sitter-c's tags.scm. Upstream's function pattern
; takes the declarator as the definition (no return type, no body range) and
; calls structs classes; these patterns re-capture the same names with the
; whole definition and precise kinds, and add prototypes, fields, enumerators,
; macros and file-scope variables. Earlier patterns win over later ones.

; Not a definition: a call the parser could not place (upstream would tag
; the declarator it guessed).
(ERROR
  (function_declarator declarator: (identifier) @ignore))

; Functions and prototypes, also those returning pointers.
(function_definition
  declarator: [
    (function_declarator declarator: (identifier) @name)
    (pointer_declarator declarator: (function_declarator declarator: (identifier) @name))
    (pointer_declarator declarator: (pointer_declarator declarator: (function_declarator declarator: (identifier) @name)))
  ]) @definition.function

(declaration
  declarator: [
    (function_declarator declarator: (identifier) @name)
    (pointer_declarator declarator: (function_declarator declarator: (identifier) @name))
    (pointer_declarator declarator: (pointer_declarator declarator: (function_declarator declarator: (identifier) @name)))
  ]) @definition.function

; `typedef struct tag { ... } name_t;` defines two names with one statement:
; both symbols span it (siblings), and the members belong to the tag.
(type_definition
  type: [
    (struct_specifier name: (type_identifier) body: (_))
    (union_specifier name: (type_identifier) body: (_))
    (enum_specifier name: (type_identifier) body: (_))
  ]
  declarator: (type_identifier) @name) @definition.type

(type_definition
  type: [
    (struct_specifier name: (type_identifier) @name body: (_))
    (union_specifier name: (type_identifier) @name body: (_))
  ]) @definition.struct

(type_definition
  type: (enum_specifier name: (type_identifier) @name body: (_))) @definition.enum

; `typedef struct { ... } name_t;` names an anonymous struct.
(type_definition
  type: [
    (struct_specifier !name body: (_))
    (union_specifier !name body: (_))
  ]
  declarator: (type_identifier) @name) @definition.struct

(type_definition
  type: (enum_specifier !name body: (_))
  declarator: (type_identifier) @name) @definition.enum

(type_definition
  declarator: [
    (type_identifier) @name
    (pointer_declarator declarator: (type_identifier) @name)
    (function_declarator declarator: (parenthesized_declarator (pointer_declarator declarator: (type_identifier) @name)))
  ]) @definition.type

(struct_specifier
  name: (type_identifier) @name
  body: (_)) @definition.struct

(union_specifier
  name: (type_identifier) @name
  body: (_)) @definition.struct

(enum_specifier
  name: (type_identifier) @name
  body: (_)) @definition.enum

(enumerator
  name: (identifier) @name) @definition.constant

; Members, also arrays, pointers and function pointers. The definition is the
; whole declaration: `int a, b;` yields two siblings.
(field_declaration
  declarator: [
    (field_identifier) @name
    (array_declarator declarator: (field_identifier) @name)
    (pointer_declarator declarator: (field_identifier) @name)
    (pointer_declarator declarator: (pointer_declarator declarator: (field_identifier) @name))
    (pointer_declarator declarator: (array_declarator declarator: (field_identifier) @name))
    (function_declarator declarator: (parenthesized_declarator (pointer_declarator declarator: (field_identifier) @name)))
  ]) @definition.field

; Macros with a value (include guards have none).
(preproc_def
  name: (identifier) @name
  value: (_)) @definition.macro

(preproc_function_def
  name: (identifier) @name) @definition.macro

; File-scope objects, also in a top-level #if/#ifdef (header guards), never a
; function's locals: `const` ones are constants (a pointer only when it is
; itself const), others variables.
(translation_unit
  [
    (declaration
      declarator: [
        (pointer_declarator (type_qualifier) @_const declarator: [(identifier) @name (array_declarator declarator: (identifier) @name)])
        (init_declarator declarator: (pointer_declarator (type_qualifier) @_const declarator: [(identifier) @name (array_declarator declarator: (identifier) @name)]))
      ]) @definition.constant
    (_
      (declaration
        declarator: [
          (pointer_declarator (type_qualifier) @_const declarator: [(identifier) @name (array_declarator declarator: (identifier) @name)])
          (init_declarator declarator: (pointer_declarator (type_qualifier) @_const declarator: [(identifier) @name (array_declarator declarator: (identifier) @name)]))
        ]) @definition.constant)
  ]
  (#eq? @_const "const"))

(translation_unit
  [
    (declaration
      (type_qualifier) @_const
      declarator: [
        (identifier) @name
        (array_declarator declarator: (identifier) @name)
        (init_declarator declarator: [(identifier) @name (array_declarator declarator: (identifier) @name)])
      ]) @definition.constant
    (_
      (declaration
        (type_qualifier) @_const
        declarator: [
          (identifier) @name
          (array_declarator declarator: (identifier) @name)
          (init_declarator declarator: [(identifier) @name (array_declarator declarator: (identifier) @name)])
        ]) @definition.constant)
  ]
  (#eq? @_const "const"))

(translation_unit
  [
    (declaration
      declarator: [
        (identifier) @name
        (array_declarator declarator: (identifier) @name)
        (pointer_declarator declarator: [(identifier) @name (array_declarator declarator: (identifier) @name)])
        (init_declarator declarator: [
          (identifier) @name
          (array_declarator declarator: (identifier) @name)
          (pointer_declarator declarator: [(identifier) @name (array_declarator declarator: (identifier) @name)])
        ])
      ]) @definition.variable
    (_
      (declaration
        declarator: [
          (identifier) @name
          (array_declarator declarator: (identifier) @name)
          (pointer_declarator declarator: [(identifier) @name (array_declarator declarator: (identifier) @name)])
          (init_declarator declarator: [
            (identifier) @name
            (array_declarator declarator: (identifier) @name)
            (pointer_declarator declarator: [(identifier) @name (array_declarator declarator: (identifier) @name)])
          ])
        ]) @definition.variable)
  ])
