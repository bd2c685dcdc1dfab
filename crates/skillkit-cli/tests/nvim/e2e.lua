-- Drives `skillkit lsp` from Neovim's own LSP client (headless): open a skill, read the
-- diagnostics, apply the preferred code action through `vim.lsp.buf.code_action` (answering its
-- menu with the first entry), see the diagnostic go, hover a key (the floating window's text),
-- complete a key, follow a reference with `vim.lsp.buf.definition`, read the code lenses.
-- Written for Neovim 0.7 (Debian 12's) and later. Results go to $RESULT as JSON; the Rust test
-- (`lsp_neovim.rs`) checks them.
local skillkit, file, root, out = os.getenv('SKILLKIT'), os.getenv('SKILL_FILE'), os.getenv('ROOT'), os.getenv('RESULT')
local results = { steps = {} }

local function step(name) table.insert(results.steps, name) end

local function codes(bufnr)
  local found = {}
  for _, d in ipairs(vim.diagnostic.get(bufnr)) do
    local code = d.code or (d.user_data and d.user_data.lsp and d.user_data.lsp.code)
    table.insert(found, { code = code, line = d.lnum, col = d.col, message = d.message })
  end
  table.sort(found, function(a, b) return tostring(a.code) < tostring(b.code) end)
  return found
end

local function has(bufnr, code)
  for _, d in ipairs(codes(bufnr)) do
    if d.code == code then return true end
  end
  return false
end

local function float_text()
  for _, win in ipairs(vim.api.nvim_list_wins()) do
    if vim.api.nvim_win_get_config(win).relative ~= '' then
      return table.concat(vim.api.nvim_buf_get_lines(vim.api.nvim_win_get_buf(win), 0, -1, false), '\n')
    end
  end
  return nil
end

local ok, err = pcall(function()
  vim.cmd('edit ' .. vim.fn.fnameescape(file))
  local bufnr = vim.api.nvim_get_current_buf()
  local id = vim.lsp.start_client({
    name = 'skillkit',
    cmd = { skillkit, 'lsp' },
    root_dir = root,
    init_options = { agent = 'spec' },
  })
  assert(id, 'the client did not start')
  vim.lsp.buf_attach_client(bufnr, id)
  step('attached')

  assert(vim.wait(30000, function() return has(bufnr, 'SK301') end, 20), 'no SK301 diagnostic came')
  results.diagnostics = codes(bufnr)
  step('diagnostics')

  -- The preferred code action for the unquoted colon, chosen from Neovim's own menu.
  local lines_before = vim.api.nvim_buf_get_lines(bufnr, 2, 3, false)[1]
  vim.api.nvim_win_set_cursor(0, { 3, 14 })
  vim.ui.select = function(items, _, on_choice)
    results.actions = {}
    for _, item in ipairs(items) do
      local action = item.action or item[2] or item
      table.insert(results.actions, action.title)
    end
    on_choice(items[1], 1)
  end
  vim.lsp.buf.code_action()
  assert(vim.wait(10000, function()
    return vim.api.nvim_buf_get_lines(bufnr, 2, 3, false)[1] ~= lines_before
  end, 20), 'the code action changed nothing')
  results.fixed_line = vim.api.nvim_buf_get_lines(bufnr, 2, 3, false)[1]
  step('code action')
  assert(vim.wait(10000, function() return not has(bufnr, 'SK301') end, 20), 'SK301 did not go')
  results.after_fix = codes(bufnr)
  step('diagnostic gone')

  -- Hover on the `name` key: Neovim's floating window.
  vim.api.nvim_win_set_cursor(0, { 2, 1 })
  vim.lsp.buf.hover()
  assert(vim.wait(10000, function() return float_text() ~= nil end, 20), 'no hover window')
  results.hover = float_text()
  step('hover')
  for _, win in ipairs(vim.api.nvim_list_wins()) do
    if vim.api.nvim_win_get_config(win).relative ~= '' then vim.api.nvim_win_close(win, true) end
  end

  -- Complete a key typed on a new frontmatter line, as the omnifunc does: the request through
  -- Neovim's client, the items through its conversion to complete-items.
  vim.api.nvim_buf_set_lines(bufnr, 3, 3, false, { 'lic' })
  vim.api.nvim_win_set_cursor(0, { 4, 3 })
  local params = vim.lsp.util.make_position_params()
  local replies = vim.lsp.buf_request_sync(bufnr, 'textDocument/completion', params, 10000)
  local reply = replies and replies[id]
  assert(reply and reply.result, 'no completion reply')
  local items = vim.lsp.util.text_document_completion_list_to_complete_items(reply.result, 'lic')
  results.completion = vim.tbl_map(function(i) return i.word end, items)
  step('completion')
  vim.api.nvim_buf_set_lines(bufnr, 3, 4, false, {})

  -- Go to the referenced file.
  local link_line
  for n, line in ipairs(vim.api.nvim_buf_get_lines(bufnr, 0, -1, false)) do
    if line:find('references/guide.md', 1, true) then link_line = n end
  end
  local col = vim.api.nvim_buf_get_lines(bufnr, link_line - 1, link_line, false)[1]:find('references/guide.md', 1, true)
  vim.api.nvim_win_set_cursor(0, { link_line, col + 2 })
  vim.lsp.codelens.refresh()
  assert(vim.wait(10000, function() return #vim.lsp.codelens.get(bufnr) > 0 end, 20), 'no code lens')
  results.lenses = vim.tbl_map(function(l) return l.command and l.command.title end, vim.lsp.codelens.get(bufnr))
  step('code lens')
  vim.lsp.buf.definition()
  assert(vim.wait(10000, function() return vim.api.nvim_buf_get_name(0):find('guide.md', 1, true) ~= nil end, 20),
    'definition did not open the file')
  results.definition = vim.api.nvim_buf_get_name(0)
  step('definition')
end)

results.ok = ok
results.error = ok and nil or tostring(err)
vim.fn.writefile({ vim.fn.json_encode(results) }, out)
if ok then vim.cmd('qa!') else vim.cmd('cquit 1') end
