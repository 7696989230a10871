// The routes of spec/01 §2. Every page is its own chunk, so /login loads only what it needs.
import { createBrowserRouter, Outlet } from 'react-router';
import { SessionProvider } from '../session/SessionProvider.tsx';
import { Splash } from '../ui/Splash.tsx';
import { Toaster } from '../ui/toast/Toaster.tsx';
import { PublicOnly, RequireAccess, RequireAuth } from './guards.tsx';
import { RouteError } from './RouteError.tsx';

function Root() {
  return (
    <SessionProvider>
      <Outlet />
      <Toaster />
    </SessionProvider>
  );
}

export const router = createBrowserRouter([
  {
    element: <Root />,
    // Shown while the first lazy page loads.
    hydrateFallbackElement: <Splash />,
    errorElement: <RouteError />,
    children: [
      {
        element: <PublicOnly />,
        children: [
          { path: '/login', lazy: () => import('../pages/auth/LoginPage.tsx') },
          { path: '/signup', lazy: () => import('../pages/auth/SignupPage.tsx') },
          { path: '/forgetpsw', lazy: () => import('../pages/auth/ForgotPasswordPage.tsx') },
        ],
      },
      {
        element: <RequireAuth />,
        children: [
          {
            lazy: () => import('../layout/AppLayout.tsx'),
            children: [
              // The dashboard for admins; anyone else goes on to their first page without a refusal toast.
              { index: true, lazy: () => import('../pages/dashboard/DashboardPage.tsx') },
              {
                element: <RequireAccess />,
                children: [
                  { path: '/helps', lazy: () => import('../pages/helps/HelpsPage.tsx') },
                  { path: '/tickets/:uuid?', lazy: () => import('../pages/tickets/TicketsPage.tsx') },
                  { path: '/users', lazy: () => import('../pages/users/UsersPage.tsx') },
                  { path: '/settings', lazy: () => import('../pages/settings/SettingsPage.tsx') },
                  { path: '/contacts', lazy: () => import('../pages/contacts/ContactsPage.tsx') },
                  { path: '/quick-messages', lazy: () => import('../pages/quick-messages/QuickMessagesPage.tsx') },
                  { path: '/schedules', lazy: () => import('../pages/schedules/SchedulesPage.tsx') },
                  { path: '/tags', lazy: () => import('../pages/tags/TagsPage.tsx') },
                  { path: '/kanban', lazy: () => import('../pages/kanban/KanbanPage.tsx') },
                  { path: '/chats/:uuid?', lazy: () => import('../pages/chats/ChatsPage.tsx') },
                  { path: '/todolist', lazy: () => import('../pages/todolist/TodoListPage.tsx') },
                  { path: '/connections', lazy: () => import('../pages/connections/ConnectionsPage.tsx') },
                  { path: '/queues', lazy: () => import('../pages/queues/QueuesPage.tsx') },
                  { path: '/announcements', lazy: () => import('../pages/announcements/AnnouncementsPage.tsx') },
                  { path: '/contact-lists', lazy: () => import('../pages/contact-lists/ContactListsPage.tsx') },
                  { path: '/contact-lists/:id/contacts', lazy: () => import('../pages/contact-lists/ContactListItemsPage.tsx') },
                  { path: '/files', lazy: () => import('../pages/files/FilesPage.tsx') },
                  { path: '/prompts', lazy: () => import('../pages/prompts/PromptsPage.tsx') },
                  { path: '/queue-integration', lazy: () => import('../pages/queue-integration/QueueIntegrationsPage.tsx') },
                  { path: '/campaigns', lazy: () => import('../pages/campaigns/CampaignsPage.tsx') },
                  { path: '/campaign/:campaignId/report', lazy: () => import('../pages/campaigns/CampaignReportPage.tsx') },
                  { path: '/campaigns-config', lazy: () => import('../pages/campaigns/CampaignSettingsPage.tsx') },
                  { path: '/flowbuilders', lazy: () => import('../pages/flowbuilders/FlowBuildersPage.tsx') },
                  { path: '/flowbuilder/:id?', lazy: () => import('../pages/flowbuilder/FlowEditorPage.tsx') },
                  { path: '/phrase-lists', lazy: () => import('../pages/phrase-lists/PhraseListsPage.tsx') },
                  { path: '/messages-api', lazy: () => import('../pages/messages-api/MessagesApiPage.tsx') },
                  { path: '/financeiro', lazy: () => import('../pages/billing/InvoicesPage.tsx') },
                  { path: '/webhooks', lazy: () => import('../pages/webhooks/WebhooksPage.tsx') },
                  { path: '/subscription', lazy: () => import('../pages/billing/SubscriptionPage.tsx') },
                  // Spec routes whose pages arrive later: gated like the real ones, then "not available yet".
                  { path: '*', lazy: () => import('../pages/NotFoundPage.tsx') },
                ],
              },
            ],
          },
        ],
      },
    ],
  },
]);
