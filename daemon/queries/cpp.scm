; comP additions to tree-sitter-cpp's tags.scm. Upstream takes declarators as
; definitions (no return type, no body range), calls structs classes, tags
; forward declarations, and reads `Lock lock(mutex);` in a block as a function.
; These patterns re-capture the same names with whole definitions and precise
; kinds, and add constructors, out-of-line members (`Foo::bar`, scoped as
; Foo.bar), namespaces, aliases, fields, enumerators, macros and namespace-level
; variables. Earlier patterns win over later ones. The C patterns repeat
; c.scm's (the C++ grammar shares C's node names).

; Not definitions: objects constructed in a block, calls the parser could not
; place, forward declarations.
(compound_statement
  (declaration
    declarator: (function_declarator declarator: (identifier) @ignore)))

(ERROR
  (function_declarator declarator: (identifier) @ignore))

(class_specifier name: (type_identifier) @ignore !body)
(struct_specifier name: (type_identifier) @ignore !body)
(union_specifier name: (type_identifier) @ignore !body)

; Constructors declared or defined in their class.
((_
  name: (type_identifier) @_class
  body: (field_declaration_list
    [
      (declaration declarator: (function_declarator declarator: (identifier) @name)) @definition.constructor
      (function_definition declarator: (function_declarator declarator: (identifier) @name)) @definition.constructor
      (template_declaration
        [
          (declaration declarator: (function_declarator declarator: (identifier) @name)) @definition.constructor
          (function_definition declarator: (function_declarator declarator: (identifier) @name)) @definition.constructor
        ])
    ]))
  (#eq? @_class @name))

; Members defined out of their class: `Foo::Foo()`, `Foo::~Foo()`,
; `T& Foo::get()`, `ns::Foo<T>::bar()`.
((function_definition
  declarator: [
    (function_declarator
      declarator: (qualified_identifier
        scope: [(namespace_identifier) @scope @_class (template_type name: (type_identifier) @scope @_class)]
        name: (identifier) @name))
    (function_declarator
      declarator: (qualified_identifier
        scope: [(namespace_identifier) @scope (template_type name: (type_identifier) @scope)]
        name: (qualified_identifier
          scope: [(namespace_identifier) @scope @_class (template_type name: (type_identifier) @scope @_class)]
          name: (identifier) @name)))
  ]) @definition.constructor
  (#eq? @_class @name))

(function_definition
  declarator: [
    (_
      declarator: (function_declarator
        declarator: (qualified_identifier
          scope: [(namespace_identifier) @scope (template_type name: (type_identifier) @scope)]
          name: [(identifier) (destructor_name) (operator_name)] @name)))
    (_
      (function_declarator
        declarator: (qualified_identifier
          scope: [(namespace_identifier) @scope (template_type name: (type_identifier) @scope)]
          name: [(identifier) (destructor_name) (operator_name)] @name)))
    (function_declarator
      declarator: (qualified_identifier
        scope: [(namespace_identifier) @scope (template_type name: (type_identifier) @scope)]
        name: [(identifier) (destructor_name) (operator_name)] @name))
    (function_declarator
      declarator: (qualified_identifier
        scope: [(namespace_identifier) @scope (template_type name: (type_identifier) @scope)]
        name: (qualified_identifier
          scope: [(namespace_identifier) @scope (template_type name: (type_identifier) @scope)]
          name: [(identifier) (destructor_name) (operator_name)] @name)))
  ]) @definition.method

; Functions, member functions (methods by their class), prototypes, also
; returning pointers or references.
(function_definition
  declarator: [
    (function_declarator declarator: [(identifier) (field_identifier) (destructor_name) (operator_name)] @name)
    (pointer_declarator declarator: (function_declarator declarator: [(identifier) (field_identifier) (operator_name)] @name))
    (pointer_declarator declarator: (pointer_declarator declarator: (function_declarator declarator: [(identifier) (field_identifier) (operator_name)] @name)))
    (reference_declarator (function_declarator declarator: [(identifier) (field_identifier) (operator_name)] @name))
  ]) @definition.function

(declaration
  declarator: [
    (function_declarator declarator: [(identifier) (field_identifier) (destructor_name) (operator_name)] @name)
    (pointer_declarator declarator: (function_declarator declarator: [(identifier) (field_identifier) (operator_name)] @name))
    (pointer_declarator declarator: (pointer_declarator declarator: (function_declarator declarator: [(identifier) (field_identifier) (operator_name)] @name)))
    (reference_declarator (function_declarator declarator: [(identifier) (field_identifier) (operator_name)] @name))
  ]) @definition.function

(field_declaration
  declarator: [
    (function_declarator declarator: [(identifier) (field_identifier) (destructor_name) (operator_name)] @name)
    (pointer_declarator declarator: (function_declarator declarator: [(identifier) (field_identifier) (operator_name)] @name))
    (pointer_declarator declarator: (pointer_declarator declarator: (function_declarator declarator: [(identifier) (field_identifier) (operator_name)] @name)))
    (reference_declarator (function_declarator declarator: [(identifier) (field_identifier) (operator_name)] @name))
  ]) @definition.function

; Types. `typedef struct tag { ... } name_t;` defines two names with one
; statement: both symbols span it (siblings), and the members belong to the tag.
(namespace_definition
  name: [(namespace_identifier) (nested_namespace_specifier)] @name) @definition.namespace

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

(alias_declaration
  name: (type_identifier) @name) @definition.type

(class_specifier
  name: [(type_identifier) (template_type name: (type_identifier))] @name
  body: (_)) @definition.class

(struct_specifier
  name: [(type_identifier) (template_type name: (type_identifier))] @name
  body: (_)) @definition.struct

(union_specifier
  name: (type_identifier) @name
  body: (_)) @definition.struct

(enum_specifier
  name: (type_identifier) @name
  body: (_)) @definition.enum

(enumerator
  name: (identifier) @name) @definition.constant

; Data members: `constexpr` and `static const` ones are constants. The
; definition is the whole declaration: `int a, b;` yields two siblings.
((field_declaration
  declarator: [
    (field_identifier) @name
    (array_declarator declarator: (field_identifier) @name)
    (pointer_declarator declarator: (field_identifier) @name)
  ]) @definition.constant
  (#match? @definition.constant "^(?:(?=[^=;{]*\\bconstexpr\\b)|(?=[^=;{]*\\bstatic\\b)(?=[^=;{]*\\bconst\\b))"))

(field_declaration
  declarator: [
    (field_identifier) @name
    (array_declarator declarator: (field_identifier) @name)
    (pointer_declarator declarator: (field_identifier) @name)
    (pointer_declarator declarator: (pointer_declarator declarator: (field_identifier) @name))
    (pointer_declarator declarator: (array_declarator declarator: (field_identifier) @name))
    (reference_declarator (field_identifier) @name)
    (function_declarator declarator: (parenthesized_declarator (pointer_declarator declarator: (field_identifier) @name)))
  ]) @definition.field

; Macros with a value (include guards have none).
(preproc_def
  name: (identifier) @name
  value: (_)) @definition.macro

(preproc_function_def
  name: (identifier) @name) @definition.macro

; Namespace-scope objects (also in extern "C" blocks and in a top-level #if),
; never a function's locals: `constexpr` and `const` ones (a pointer only when
; it is itself const) are constants, others variables.
((translation_unit
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
  ])
  (#eq? @_const "const"))

((declaration_list
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
  ])
  (#eq? @_const "const"))

((translation_unit
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
  ])
  (#any-of? @_const "const" "constexpr"))

((declaration_list
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
  ])
  (#any-of? @_const "const" "constexpr"))

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

(declaration_list
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
