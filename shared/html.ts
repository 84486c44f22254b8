/**
 * The one escape for text written into HTML, SVG or XML (reports, exported charts): every piece of
 * user or capture text goes through it, in element content and in quoted attribute values alike.
 */
const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ENTITIES[c]!);
}
