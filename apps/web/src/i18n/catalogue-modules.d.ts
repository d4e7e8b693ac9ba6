/** A part of a catalogue, served by the build's catalogue plugin (build/catalogue-parts-plugin.ts). */
declare module 'virtual:catalogue/*' {
  const messages: Record<string, string>;
  export default messages;
}
