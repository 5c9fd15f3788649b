import { highlightParts } from '../news-feed.ts';

/** Text with the search's matches in <mark>; everything is rendered as text, never as HTML. */
export function Highlighted({ text }: { text: string }) {
  return (
    <>
      {highlightParts(text).map((part, index) =>
        part.match ? (
          // biome-ignore lint/suspicious/noArrayIndexKey: parts of one string never reorder
          <mark key={index} className="rounded-sm bg-primary/20 px-0.5 text-foreground">
            {part.text}
          </mark>
        ) : (
          // biome-ignore lint/suspicious/noArrayIndexKey: parts of one string never reorder
          <span key={index}>{part.text}</span>
        ),
      )}
    </>
  );
}
