/** An in-memory store the notes tools write to (a real service would inject its repository). */
export class NotesStore {
  readonly #notes = new Map<string, string>();

  save(name: string, text: string): string {
    const id = `note-${this.#notes.size + 1}`;
    this.#notes.set(id, `${name}\n${text}`);
    return id;
  }

  get size(): number {
    return this.#notes.size;
  }
}
