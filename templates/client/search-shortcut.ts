/**
 * The keys that open search: Ctrl+K or ⌘K, and "/" outside a text field. The script every
 * page loads checks them before the search island exists, and the island afterwards; one
 * definition keeps the two from disagreeing (Ctrl+Shift+K, say, belongs to the browser).
 */
export function isSearchShortcut(event: KeyboardEvent): boolean {
  if (event.defaultPrevented || event.isComposing) return false;
  const combo = (event.ctrlKey || event.metaKey) && !event.altKey && !event.shiftKey && event.key.toLowerCase() === 'k';
  const slash = event.key === '/' && !event.ctrlKey && !event.metaKey && !event.altKey && !isEditable(event.target);
  return combo || slash;
}

function isEditable(target: EventTarget | null): boolean {
  return target instanceof Element && target.closest('input, textarea, select, [contenteditable=""], [contenteditable="true"]') !== null;
}
