// Progressive enhancement only: every page works without this file.

document.addEventListener('DOMContentLoaded', () => {
  // A refused form's summary of its errors takes the focus: the page announces what went wrong
  // instead of leaving the user at the top of what looks like the same form.
  document.getElementById('error-summary')?.focus();
  // "Select all" in a list's header ticks every row of that table.
  for (const all of document.querySelectorAll('input.select-all')) {
    all.addEventListener('change', () => {
      const table = all.closest('table');
      for (const box of table.querySelectorAll('tbody input[type="checkbox"][name="id"]')) {
        box.checked = all.checked;
      }
    });
  }
  // A chosen CSV file fills the text area (the upload stays a paste for the server).
  for (const input of document.querySelectorAll('input[type="file"][data-fills]')) {
    input.addEventListener('change', async () => {
      const target = document.getElementById(input.dataset.fills);
      const file = input.files?.[0];
      if (target && file) target.value = await file.text();
    });
  }
  // Keyboard: "/" focuses the search box, as in many tools.
  document.addEventListener('keydown', (event) => {
    const active = document.activeElement;
    const typing = active && /^(INPUT|TEXTAREA|SELECT)$/.test(active.tagName);
    if (event.key === '/' && !typing) {
      const search = document.getElementById('global-search');
      if (search) {
        event.preventDefault();
        search.focus();
      }
    }
  });
});
