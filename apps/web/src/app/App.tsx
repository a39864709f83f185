/** The providers around every page: i18n, server data, theme, feedback, router. */
import { QueryClientProvider } from '@tanstack/react-query';
import type { i18n as I18n } from 'i18next';
import { useState } from 'react';
import { I18nextProvider } from 'react-i18next';
import { BrowserRouter } from 'react-router';
import { createQueryClient } from '../api/hooks.ts';
import { AppRoutes } from './AppRoutes.tsx';
import { FeedbackBridge } from './FeedbackBridge.tsx';
import { NavigationIndicator } from './NavigationIndicator.tsx';
import { ThemeProvider } from './theme.tsx';

export function App({ i18n }: { i18n: I18n }) {
  const [queryClient] = useState(createQueryClient);
  return (
    <I18nextProvider i18n={i18n}>
      <QueryClientProvider client={queryClient}>
        <ThemeProvider language={i18n.language}>
          <FeedbackBridge />
          <BrowserRouter>
            <NavigationIndicator />
            <AppRoutes />
          </BrowserRouter>
        </ThemeProvider>
      </QueryClientProvider>
    </I18nextProvider>
  );
}
