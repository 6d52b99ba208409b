; comP additions to tree-sitter-go's tags.scm.

; Methods carry their receiver's type in the scope: `func (c *Cache[V]) Get()`
; is Cache.Get.
(method_declaration
  receiver: (parameter_list
    (parameter_declaration
      type: [
        (type_identifier) @scope
        (generic_type type: (type_identifier) @scope)
        (pointer_type
          [
            (type_identifier) @scope
            (generic_type type: (type_identifier) @scope)
          ])
      ]))
  name: (field_identifier) @name) @definition.method

; Types by what they declare (the first pattern wins). A declaration of one
; type covers `type` itself (its signature reads "type Stats struct"); in a
; `type ( ... )` group each spec stands alone.
((type_declaration
  (type_spec
    name: (type_identifier) @name
    type: (struct_type))) @definition.struct
  (#not-match? @definition.struct "^type\\s*\\("))

((type_declaration
  (type_spec
    name: (type_identifier) @name
    type: (interface_type))) @definition.interface
  (#not-match? @definition.interface "^type\\s*\\("))

((type_declaration
  [
    (type_spec name: (type_identifier) @name)
    (type_alias name: (type_identifier) @name)
  ]) @definition.type
  (#not-match? @definition.type "^type\\s*\\("))

(type_declaration
  (type_spec
    name: (type_identifier) @name
    type: (struct_type)) @definition.struct)

(type_declaration
  (type_spec
    name: (type_identifier) @name
    type: (interface_type)) @definition.interface)

(type_declaration
  [
    (type_spec name: (type_identifier) @name)
    (type_alias name: (type_identifier) @name)
  ] @definition.type)

; Struct fields and interface methods.
(type_spec
  type: (struct_type
    (field_declaration_list
      (field_declaration
        name: (field_identifier) @name) @definition.field)))

(type_spec
  type: (interface_type
    (method_elem
      name: (field_identifier) @name) @definition.method))

; Package-level constants and variables (never those of a function body).
((source_file
  (const_declaration
    (const_spec
      name: (identifier) @name)) @definition.constant)
  (#not-match? @definition.constant "^const\\s*\\("))

(source_file
  (const_declaration
    (const_spec
      name: (identifier) @name) @definition.constant) @_group
  (#match? @_group "^const\\s*\\("))

((source_file
  (var_declaration
    (var_spec
      name: (identifier) @name)) @definition.variable)
  (#not-match? @definition.variable "^var\\s*\\("))

(source_file
  (var_declaration
    (var_spec_list
      (var_spec
        name: (identifier) @name) @definition.variable)))
