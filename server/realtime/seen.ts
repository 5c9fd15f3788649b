/**
 * Ids of messages handled lately, remembered longer than the database keeps the messages (a
 * minute), so a message both announced and read again after a lost listening connection is
 * delivered once (decision 172). Oldest first: forgetting costs nothing per message.
 */
export class SeenIds {
  private readonly ids = new Map<string, number>();

  constructor(private readonly forMs = 120_000) {}

  has(id: string): boolean {
    return this.ids.has(id);
  }

  /** Marks `id` seen; false when it already was. */
  add(id: string, now = Date.now()): boolean {
    if (this.ids.has(id)) return false;
    this.ids.set(id, now);
    for (const [old, at] of this.ids) {
      if (now - at <= this.forMs) break;
      this.ids.delete(old);
    }
    return true;
  }
}
