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
  // A chosen CSV file fills the text area (the upload stays a paste for the server). UTF-8 is
  // read strictly: a file that is not (Excel's "CSV" is Windows-1252) is read as Windows-1252
  // and the page says so, instead of storing U+FFFD in place of every accented letter.
  for (const input of document.querySelectorAll('input[type="file"][data-fills]')) {
    input.addEventListener('change', async () => {
      const target = document.getElementById(input.dataset.fills);
      const note = document.getElementById(input.dataset.note);
      const file = input.files?.[0];
      if (!target || !file) return;
      const bytes = await file.arrayBuffer();
      let text;
      let message = '';
      try {
        text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
      } catch {
        text = new TextDecoder('windows-1252').decode(bytes);
        message = `${file.name} is not UTF-8: it was read as Windows-1252 (Western European, as Excel saves CSV). Check the accented letters in the preview before importing.`;
      }
      target.value = text;
      if (note) {
        note.textContent = message;
        note.hidden = message === '';
      }
    });
  }
  // Keyboard: "/" focuses the search box, as in many tools. A one-character shortcut can be set
  // off by someone it gets in the way of (speech input types "/" as a command's word, WCAG
  // 2.1.4): the box beside the search field, remembered by this browser.
  const SHORTCUT_SETTING = 'inventory.searchShortcut';
  const NOT_TEXT_INPUTS = new Set([
    'checkbox',
    'radio',
    'button',
    'submit',
    'reset',
    'file',
    'range',
    'color',
  ]);
  const remembered = () => {
    try {
      return localStorage.getItem(SHORTCUT_SETTING);
    } catch {
      return null; // storage refused (a private window's settings): the shortcut stays on
    }
  };
  const toggle = document.getElementById('search-shortcut');
  if (toggle) {
    toggle.checked = remembered() !== 'off';
    toggle.closest('label').hidden = false;
    toggle.addEventListener('change', () => {
      try {
        localStorage.setItem(SHORTCUT_SETTING, toggle.checked ? 'on' : 'off');
      } catch {
        // Not remembered: the box still decides for this page.
      }
    });
  }
  document.addEventListener('keydown', (event) => {
    if (event.key !== '/' || event.ctrlKey || event.metaKey || event.altKey) return;
    if (toggle ? !toggle.checked : remembered() === 'off') return;
    // Where "/" is text (a field, an editable region), it stays text; on a box or a button it
    // does nothing of its own.
    const active = document.activeElement;
    const typing =
      active &&
      (/^(TEXTAREA|SELECT)$/.test(active.tagName) ||
        active.isContentEditable ||
        (active.tagName === 'INPUT' && !NOT_TEXT_INPUTS.has(active.type)));
    const search = document.getElementById('global-search');
    if (!typing && search) {
      event.preventDefault();
      search.focus();
    }
  });
});
