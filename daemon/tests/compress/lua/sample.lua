#!/usr/bin/env lua
-- Copyright 2024 Example Corp.
--[[
  A long comment
  spanning lines.
]]

local json = require("json") -- decoder

local M = {}
M.VERSION = "1.0 -- not a comment"
M.TEMPLATE = [[
  long string -- with dashes   
  second line
]]

local function clamp(value, low, high)
  -- keep within bounds
  if value < low then return low end
  if value > high then return high end
  return value
end

function M.new(name, size)
  local function validate(n)
    return n > 0
  end
  assert(validate(size), "size must be positive")
  return setmetatable({ name = name, size = size }, { __index = M })
end

function M:resize(size)
  self.size = clamp(size, 1, 1024)
  return self
end

M.handlers = {
  encode = function(value)
    local text = json.encode(value)
    return text
  end,
  noop = function() end,
}

M.describe = function(self)
  return string.format("%s (%d)", self.name, self.size)
end

return M
