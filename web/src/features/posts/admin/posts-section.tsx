import { Route, Routes } from 'react-router';
import { SectionShell } from '#web/components/layout/detail-shell.tsx';
import { PostEditor } from './post-editor.tsx';
import { PostsList } from './posts-list.tsx';

/** /admin/posts (the list), /admin/posts/new and /admin/posts/<id> (the editor). */
export function PostsSection() {
  return (
    <SectionShell
      id="posts-heading"
      title="Posts"
      description="The team's posts: written in Markdown, shown in the news feed, featured ones on the home page."
    >
      <Routes>
        <Route index element={<PostsList />} />
        <Route path="new" element={<PostEditor />} />
        <Route path=":id" element={<PostEditor />} />
      </Routes>
    </SectionShell>
  );
}
