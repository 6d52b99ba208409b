; comP additions to tree-sitter-ruby's tags.scm: constants, classes made with
; Struct.new / Class.new / Data.define, and `class A::B` scoped under A.

((assignment
  left: (constant) @name
  right: (call
    receiver: (constant) @_receiver
    method: (identifier) @_method)) @definition.class
  (#any-of? @_receiver "Struct" "Class" "Data")
  (#any-of? @_method "new" "define"))

; Ruby forbids assigning a constant in a method, so every one is module level.
(assignment
  left: (constant) @name) @definition.constant

(class
  name: (scope_resolution
    scope: [
      (constant) @scope
      (scope_resolution) @scope
    ]
    name: (constant) @name)) @definition.class

(module
  name: (scope_resolution
    scope: [
      (constant) @scope
      (scope_resolution) @scope
    ]
    name: (constant) @name)) @definition.module
