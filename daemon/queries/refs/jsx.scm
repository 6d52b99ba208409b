; JSX (JavaScript and TSX): <Widget /> renders, that is calls, Widget.
(jsx_opening_element name: (identifier) @call (#match? @call "^[A-Z]"))
(jsx_self_closing_element name: (identifier) @call (#match? @call "^[A-Z]"))
(jsx_opening_element name: (member_expression object: (_) @receiver property: (property_identifier) @call))
(jsx_self_closing_element name: (member_expression object: (_) @receiver property: (property_identifier) @call))
