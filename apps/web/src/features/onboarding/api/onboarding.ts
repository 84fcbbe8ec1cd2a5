import type { OnboardingMode, ProviderKeysInput, UserResponse } from '@conductor/shared/schemas/onboarding';
import { useMutation } from '@tanstack/react-query';
import { api } from '~/lib/api-client';
import { authStore } from '~/lib/auth';

/** Both calls answer with the updated user, which goes straight into the auth store. */
export const useSaveOnboardingKeys = () =>
  useMutation({
    mutationFn: async (keys: ProviderKeysInput) => {
      const { user } = await api.post<UserResponse>('/onboarding/provider-keys', keys);
      authStore.setUser(user);
      return user;
    },
  });

export const useCompleteOnboarding = () =>
  useMutation({
    mutationFn: async (mode: OnboardingMode) => {
      const { user } = await api.post<UserResponse>('/onboarding/complete', { mode });
      authStore.setUser(user);
      return user;
    },
  });
