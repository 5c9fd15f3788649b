import { Route, Routes } from 'react-router';
import { PostEditor } from './post-editor.tsx';
import { PostsList } from './posts-list.tsx';

/** /admin/posts (the list), /admin/posts/new and /admin/posts/<id> (the editor). */
export function PostsSection() {
  return (
    <section aria-labelledby="posts-heading" className="grid gap-4">
      <div>
        <h2 id="posts-heading" className="font-semibold text-xl">
          Posts
        </h2>
        <p className="mt-1 text-muted-foreground">
          The team's posts: written in Markdown, shown in the news feed, featured ones on the home page.
        </p>
      </div>
      <Routes>
        <Route index element={<PostsList />} />
        <Route path="new" element={<PostEditor />} />
        <Route path=":id" element={<PostEditor />} />
      </Routes>
    </section>
  );
}
