; comP's symbol query for HTML (tree-sitter-html ships no tags.scm): every
; element with an id is an `element` named by the id, which is what CSS
; selectors, fragment links and scripts refer to.

([
  (element
    [
      (start_tag
        (attribute
          (attribute_name) @_attribute
          [
            (attribute_value) @name
            (quoted_attribute_value (attribute_value) @name)
          ]))
      (self_closing_tag
        (attribute
          (attribute_name) @_attribute
          [
            (attribute_value) @name
            (quoted_attribute_value (attribute_value) @name)
          ]))
    ])
  (script_element
    (start_tag
      (attribute
        (attribute_name) @_attribute
        [
          (attribute_value) @name
          (quoted_attribute_value (attribute_value) @name)
        ])))
  (style_element
    (start_tag
      (attribute
        (attribute_name) @_attribute
        [
          (attribute_value) @name
          (quoted_attribute_value (attribute_value) @name)
        ])))
] @definition.element
  (#match? @_attribute "^[iI][dD]$"))
