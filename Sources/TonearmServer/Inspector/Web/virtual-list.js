// A virtual list: fixed row height, only the visible rows (plus a small overscan) exist in the DOM,
// positioned with transforms inside a spacer whose height gives the scrollbar its full range.
// It is a single-select listbox: arrow keys / Page Up / Page Down / Home / End move the selection,
// Enter opens it, clicking selects and opens.
import { h } from './dom.js';

const OVERSCAN = 6;

export class VirtualList {
  // viewport: the scrolling element (role="listbox", tabindex="0").
  // createRow(): a new row element (children made once, reused); updateRow(row, item, index) fills it.
  // keyOf(item): a stable id; indexOfKey(key): where that item is now, or -1.
  constructor(viewport, {rowHeight, createRow, updateRow, keyOf, indexOfKey, onSelect, onOpen}) {
    Object.assign(this, {viewport, rowHeight, createRow, updateRow, keyOf, indexOfKey, onSelect, onOpen});
    this.count = 0;
    this.itemAt = () => null;
    this.selectedKey = null;
    this.rows = []; // pooled row elements
    this.spacer = h('div', {class: 'vlist-spacer', role: 'presentation'});
    viewport.append(this.spacer);
    this.height = viewport.clientHeight;
    this.frame = 0;

    viewport.addEventListener('scroll', () => this.schedule());
    viewport.addEventListener('keydown', (e) => this.onKey(e));
    viewport.addEventListener('click', (e) => {
      const row = e.target.closest('.vrow');
      if (!row || row.dataset.index === undefined) return;
      const item = this.itemAt(Number(row.dataset.index));
      if (!item) return;
      this.select(this.keyOf(item), false, false);
      this.onOpen(item);
    });
    // Cache the viewport height so a render never has to read layout for it.
    new ResizeObserver(() => { this.height = viewport.clientHeight; this.render(); }).observe(viewport);
  }

  // New contents. `prepended` rows were added at the top: when the user has scrolled down, the
  // scroll position moves with them so the rows being read do not jump.
  setItems(count, itemAt, {prepended = 0} = {}) {
    this.count = count;
    this.itemAt = itemAt;
    this.spacer.style.height = `${count * this.rowHeight}px`;
    if (prepended > 0 && this.viewport.scrollTop > 0) this.viewport.scrollTop += prepended * this.rowHeight;
    this.render();
  }

  // Fills every shown row again: items whose keys are unchanged but whose content changed (a stream
  // that ended since its row was drawn). render() alone refills only rows showing another key.
  refresh() {
    for (const row of this.rows) delete row.dataset.key;
    this.render();
  }

  schedule() {
    if (this.frame) return;
    this.frame = requestAnimationFrame(() => { this.frame = 0; this.render(); });
  }

  render() {
    const {rowHeight, count} = this;
    const top = this.viewport.scrollTop;
    const first = Math.max(0, Math.floor(top / rowHeight) - OVERSCAN);
    const last = Math.min(count, Math.ceil((top + this.height) / rowHeight) + OVERSCAN);
    const needed = Math.max(0, last - first);
    while (this.rows.length < needed) {
      const row = this.createRow();
      row.classList.add('vrow');
      row.setAttribute('role', 'option');
      this.rows.push(row);
      this.spacer.append(row);
    }
    let active = null;
    for (let r = 0; r < this.rows.length; r++) {
      const row = this.rows[r];
      const index = first + r;
      if (r >= needed) { row.hidden = true; delete row.dataset.index; row.removeAttribute('id'); continue; }
      const item = this.itemAt(index);
      const key = this.keyOf(item);
      row.hidden = false;
      row.style.transform = `translateY(${index * rowHeight}px)`;
      row.dataset.index = index;
      row.classList.toggle('odd', index % 2 === 1);
      // Re-fill a row only when it shows a different item (the common scroll case reuses nothing
      // else, the common append case reuses most rows).
      if (row.dataset.key !== String(key)) {
        row.dataset.key = key;
        this.updateRow(row, item, index);
      }
      row.id = `vrow-${r}`;
      row.setAttribute('aria-posinset', index + 1);
      row.setAttribute('aria-setsize', count);
      const selected = key === this.selectedKey;
      row.setAttribute('aria-selected', selected ? 'true' : 'false');
      if (selected) active = row.id;
    }
    if (active) this.viewport.setAttribute('aria-activedescendant', active);
    else this.viewport.removeAttribute('aria-activedescendant');
  }

  select(key, scroll = true, notify = true) {
    this.selectedKey = key;
    const index = this.indexOfKey(key);
    if (scroll && index >= 0) this.scrollToIndex(index);
    this.render();
    const item = index >= 0 ? this.itemAt(index) : null;
    if (item && notify) this.onSelect(item);
  }

  scrollToIndex(index) {
    const top = index * this.rowHeight;
    const viewTop = this.viewport.scrollTop;
    if (top < viewTop) this.viewport.scrollTop = top;
    else if (top + this.rowHeight > viewTop + this.height) this.viewport.scrollTop = top + this.rowHeight - this.height;
  }

  onKey(event) {
    if (this.count === 0) return;
    const page = Math.max(1, Math.floor(this.height / this.rowHeight) - 1);
    const current = this.selectedKey === null ? -1 : this.indexOfKey(this.selectedKey);
    let next = null;
    switch (event.key) {
      case 'ArrowDown': next = current + 1; break;
      case 'ArrowUp': next = current < 0 ? 0 : current - 1; break;
      case 'PageDown': next = current + page; break;
      case 'PageUp': next = current - page; break;
      case 'Home': next = 0; break;
      case 'End': next = this.count - 1; break;
      case 'Enter':
      case ' ':
        if (current >= 0) { event.preventDefault(); this.onOpen(this.itemAt(current)); }
        return;
      default: return;
    }
    event.preventDefault();
    next = Math.max(0, Math.min(this.count - 1, next));
    this.select(this.keyOf(this.itemAt(next)));
  }
}
