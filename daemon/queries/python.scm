; comP additions to tree-sitter-python's tags.scm. Upstream calls every
; module-level assignment a constant; these patterns give the precise kind.
; Earlier patterns win over later ones.

; Module level: `T = TypeVar("T")`, `X: TypeAlias = ...` and `type X = ...`
; define types, UPPER_CASE names constants, anything else a module variable.
(module
  (expression_statement
    (assignment
      left: (identifier) @name
      right: (call
        function: [
          (identifier) @_factory
          (attribute attribute: (identifier) @_factory)
        ])) @definition.type)
  (#any-of? @_factory "TypeVar" "ParamSpec" "TypeVarTuple" "NewType" "TypeAliasType"))

(module
  (expression_statement
    (assignment
      left: (identifier) @name
      type: (type) @_type) @definition.type)
  (#match? @_type "TypeAlias$"))

(module
  (expression_statement
    (assignment
      left: (identifier) @name) @definition.constant)
  (#match? @name "^_*[A-Z][A-Z0-9_]+$"))

(module
  (expression_statement
    (assignment
      left: (identifier) @name) @definition.variable))

(type_alias_statement
  left: (type
    [
      (identifier) @name
      (generic_type (identifier) @name)
    ])) @definition.type

; Class body: UPPER_CASE attributes (and enum members) are constants, other
; declared attributes (dataclass fields, annotations) are fields.
(class_definition
  body: (block
    (expression_statement
      (assignment
        left: (identifier) @name) @definition.constant))
  (#match? @name "^_*[A-Z][A-Z0-9_]+$"))

(class_definition
  body: (block
    (expression_statement
      (assignment
        left: (identifier) @name) @definition.field)))

; Enum subclasses are enums, Protocol subclasses are interfaces.
((class_definition
  name: (identifier) @name
  superclasses: (argument_list
    [
      (identifier) @_base
      (attribute attribute: (identifier) @_base)
    ])) @definition.enum
  (#match? @_base "^(Enum|IntEnum|StrEnum|Flag|IntFlag)$"))

((class_definition
  name: (identifier) @name
  superclasses: (argument_list
    [
      (identifier) @_base
      (attribute attribute: (identifier) @_base)
      (subscript value: (identifier) @_base)
    ])) @definition.interface
  (#eq? @_base "Protocol"))

; @property (and its setter/deleter) defines a property, not a method.
(decorated_definition
  (decorator
    [
      (identifier) @_decorator
      (attribute attribute: (identifier) @_decorator)
    ])
  definition: (function_definition
    name: (identifier) @name) @definition.property
  (#match? @_decorator "^(property|cached_property|setter|deleter)$"))
