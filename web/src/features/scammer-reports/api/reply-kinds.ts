/** Right of reply (decision 126): what the people named may send, and how they are named. */

export type ReplyKind = 'reply' | 'correction' | 'takedown';
export type ReplyRelation = 'person' | 'business' | 'representative';

export const REPLY_KINDS: readonly [ReplyKind, string, string][] = [
  ['reply', 'A reply', 'Your side of the story, shown under the report once accepted.'],
  [
    'correction',
    'A correction',
    'Something in the report is wrong; say what and why. Accepted corrections are shown under it.',
  ],
  [
    'takedown',
    'A takedown request',
    'The report should not be published (for example it names the wrong person). An accepted request takes it down for a new review.',
  ],
];
export const REPLY_RELATIONS: readonly [ReplyRelation, string][] = [
  ['person', 'I am the person named'],
  ['business', 'I own or run the business named'],
  ['representative', 'I represent the person or business named'],
];

/** How readers see who replied: never who, only how they are named. */
export const RELATION_FOR_READERS: Record<ReplyRelation, string> = {
  person: 'the person named',
  business: 'the business named',
  representative: 'a representative of those named',
};
