-- Inventory module for a game server: items, stacks and persistence.
local json = require("dkjson")

local M = {}

M.VERSION = "1.4.0"
M.MAX_STACK = 99

local DEFAULT_SLOTS = 24
local registry = {}

local Inventory = {}
Inventory.__index = Inventory

local function clamp(value, low, high)
  if value < low then return low end
  if value > high then return high end
  return value
end

function M.new(owner, slots)
  local self = setmetatable({}, Inventory)
  self.owner = owner
  self.slots = slots or DEFAULT_SLOTS
  self.items = {}
  registry[owner] = self
  return self
end

function Inventory:add(item, count)
  local stack = self.items[item.id]
  if stack then
    stack.count = clamp(stack.count + count, 0, M.MAX_STACK)
  else
    self.items[item.id] = { item = item, count = clamp(count, 1, M.MAX_STACK) }
  end
  return self
end

function Inventory:remove(id, count)
  local stack = self.items[id]
  if not stack then
    return false
  end
  stack.count = stack.count - count
  if stack.count <= 0 then
    self.items[id] = nil
  end
  return true
end

function Inventory:total()
  local sum = 0
  for _, stack in pairs(self.items) do
    sum = sum + stack.count
  end
  return sum
end

Inventory.serializers = {
  json = function(inventory)
    return json.encode(inventory.items)
  end,
  csv = function(inventory)
    local rows = {}
    local function row(stack)
      return stack.item.id .. "," .. stack.count
    end
    for _, stack in pairs(inventory.items) do
      rows[#rows + 1] = row(stack)
    end
    return table.concat(rows, "\n")
  end,
}

M.find = function(owner)
  return registry[owner]
end

function M.save(inventory, path)
  local file = assert(io.open(path, "w"))
  file:write(Inventory.serializers.json(inventory))
  file:close()
end

function reset_all()
  registry = {}
end

M.Inventory = Inventory

return M
