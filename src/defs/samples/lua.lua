-- A module.
local M = {}

local function helper(a)
  return a + 1
end

function M.add(a, b)
  return a + b
end

function M:method(x)
  local cb = function(y)
    return y
  end
  return cb(x)
end

M.other = function()
  return 2
end

function global_fn()
  for i = 1, 10 do
    if i % 2 == 0 then goto continue end
    print(i)
    ::continue::
  end
end

local function bits(a, b)
  return a & b | (a ~ b) << 1
end

function after_bits()
  local s = [[long
string]]
  return #s // 2
end

return M
